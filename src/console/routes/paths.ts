/** Paths of the shell's own pages (features have theirs in `features/<id>/paths.ts`). */
export const HOME_PATH = '/';
