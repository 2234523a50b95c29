import { createTheme, localStorageColorSchemeManager } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  cursorType: 'pointer',
});

/** Light/dark choice, kept in localStorage (index.html reads the same key before paint). */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'fieldwork.colorScheme' });
