/**
 * The command palette loads on first use (Ctrl+K or the header's search button): Spotlight
 * and the palette's search stay out of the code every page load fetches (the budget to
 * reach Home, scripts/bundle-report.mjs). Opened before it is mounted, Spotlight's store
 * is already open when it mounts, so the first Ctrl+K shows it as soon as it has loaded.
 */
import { useHotkeys } from '@mantine/hooks';
import { lazy, Suspense, useEffect, useState } from 'react';

const load = () => import('./CommandPalette.tsx');
const CommandPalette = lazy(() => load().then((m) => ({ default: m.CommandPalette })));

let mount: (() => void) | undefined;

/** Opens the palette, loading it the first time. */
export async function openPalette() {
  mount?.();
  (await load()).spotlight.open();
}

/** Where the palette lives in the shell; until first used, only its shortcut. */
export function PaletteLauncher() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    mount = () => setWanted(true);
    return () => {
      mount = undefined;
    };
  }, []);
  // Once mounted, Spotlight handles its own shortcut.
  useHotkeys(wanted ? [] : [['mod+K', () => void openPalette()]]);
  return wanted ? (
    <Suspense fallback={null}>
      <CommandPalette />
    </Suspense>
  ) : null;
}
