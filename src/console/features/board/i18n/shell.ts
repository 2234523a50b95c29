/** The board's strings the shell shows before its page loads (navigation, Home). */
export const shell = {
  en: {
    nav: { section: 'Rostering and scheduling', board: 'Dispatch board' },
    home: { board: "Every technician's day or week, and the work orders to schedule dragged onto them." },
  },
  fr: {
    nav: { section: 'Planification', board: 'Tableau de répartition' },
    home: {
      board:
        'La journée ou la semaine de chaque technicien, et les interventions à planifier glissées dessus.',
    },
  },
} as const;
