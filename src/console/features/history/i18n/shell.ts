/** The History strings the shell shows before the panel loads (the tab's title). */
export const shell = {
  en: { tab: 'History' },
  fr: { tab: 'Historique' },
} as const;
