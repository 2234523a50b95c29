import { type Browser, chromium } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.mjs';

/**
 * The features Chromium was launched without, as it parsed them (chrome://version holds its
 * command-line variations, base64 JSON): Chromium keeps only the last --disable-features.
 */
async function disabledFeatures(browser: Browser): Promise<Set<string>> {
  const page = await browser.newPage();
  await page.goto('chrome://version');
  const encoded = /eyJ[A-Za-z0-9+/=]+/.exec(await page.content())?.[0] ?? '';
  await page.close();
  const variations = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
  return new Set(String(variations['disable-features'] ?? '').split(','));
}

async function withBrowser<T>(args: string[], fn: (browser: Browser) => Promise<T>): Promise<T> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args });
  try {
    return await fn(browser);
  } finally {
    await browser.close();
  }
}

describe('e2e/support/chromium.mjs', () => {
  it("keeps every feature Playwright disables, and opens no omnibox popup in a test's context", async () => {
    const playwrights = await withBrowser(['--no-sandbox'], disabledFeatures);
    expect(playwrights.has('HttpsUpgrades')).toBe(true);
    await withBrowser(CHROMIUM_ARGS, async (browser) => {
      const ours = await disabledFeatures(browser);
      expect([...playwrights].filter((f) => !ours.has(f))).toEqual([]);
      const context = await browser.newContext();
      await context.newPage();
      const cdp = await browser.newBrowserCDPSession();
      const { targetInfos } = await cdp.send('Target.getTargets');
      expect(targetInfos.filter((t) => t.url.includes('omnibox')).map((t) => t.url)).toEqual([]);
    });
  }, 60_000);
});
