/**
 * How the end-to-end tests launch Debian's Chromium (playwright.config.ts, and
 * bench/e2e-cpu.mjs, which measures what these switches save).
 */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Playwright's own --disable-features list (chromiumSwitches.ts in playwright-core 1.65),
 * repeated because Chromium keeps only the last --disable-features it is given (checked by
 * chromium.test.ts, which fails when a new Playwright disables more); then the
 * WebUI omnibox popup. Since Chromium ~140 every new window, so every test's browser
 * context, renders chrome://omnibox-popup.top-chrome in a renderer of its own: in headless
 * runs nobody sees it, and it cost as much CPU as the console's page (a third of the run).
 */
const DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
  'WebUIOmniboxFullPopup',
];

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
];
