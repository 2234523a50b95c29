import { type CSSVariablesResolver, createTheme, localStorageColorSchemeManager, Menu } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  cursorType: 'pointer',
  // Menus, modals and notifications appear without animation for a user whose system asks
  // for reduced motion (WCAG 2.3.3).
  respectReducedMotion: true,
  components: {
    // A menu holds its items only (axe aria-required-children): no focus placeholder before
    // them; the first item takes the focus instead.
    Menu: Menu.extend({ defaultProps: { withInitialFocusPlaceholder: false } }),
  },
});

const TINTS = [
  'red',
  'pink',
  'grape',
  'violet',
  'indigo',
  'blue',
  'cyan',
  'teal',
  'green',
  'lime',
  'yellow',
  'orange',
];

/**
 * WCAG AA contrast (4.5:1) for text, which Mantine's default shades miss in the light
 * scheme: white on filled buttons (shade 6 -> 8/9), the text of light variants (badges,
 * active nav links: shade 9), and dimmed text (gray.6 -> gray.7). Error text and borders
 * (`--mantine-color-error`, used by every input's error) are red.6 on white and red.8 on
 * dark by default, about 3.3:1: red.8 in the light scheme, red.4 in the dark one.
 * Placeholders (`--mantine-color-placeholder`, gray.5 on white is 2.07:1; the date-time
 * picker's placeholder is real text that axe checks): 4.98:1 on white, 4.83:1 on the dark
 * inputs' dark.6.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => {
  const light: Record<string, string> = {};
  for (const c of TINTS) {
    light[`--mantine-color-${c}-filled`] = t.colors[c][c === 'blue' ? 8 : 9];
    light[`--mantine-color-${c}-filled-hover`] = t.colors[c][9];
    light[`--mantine-color-${c}-light`] = t.colors[c][0];
    light[`--mantine-color-${c}-light-hover`] = t.colors[c][1];
    light[`--mantine-color-${c}-light-color`] = t.colors[c][9];
    light[`--mantine-color-${c}-text`] = t.colors[c][9];
  }
  return {
    variables: {},
    light: {
      ...light,
      '--mantine-color-dimmed': t.colors.gray[7],
      '--mantine-color-anchor': t.colors.blue[8],
      '--mantine-color-error': t.colors.red[8],
      '--mantine-color-placeholder': '#6b7079',
    },
    dark: {
      '--mantine-color-dimmed': t.colors.dark[1],
      '--mantine-color-error': t.colors.red[4],
      '--mantine-color-placeholder': '#9a9a9a',
    },
  };
};

/** Light/dark choice, kept in localStorage (index.html reads the same key before paint). */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'fieldwork.colorScheme' });
