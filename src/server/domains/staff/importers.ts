import type { Importer } from '../../cli/importer.ts';

/** Keys of the import file owned by this domain (see cli/importer.ts). */
export const staffImporters: Importer[] = [];
