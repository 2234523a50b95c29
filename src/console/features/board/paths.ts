/** Route templates of the dispatch board (spec: Rostering and Scheduling; issue 28). */
export const boardPaths = {
  board: '/rostering/board',
} as const;
