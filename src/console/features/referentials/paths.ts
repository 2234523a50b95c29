/** URLs of the Referentials pages (the router in src/console/routes binds the same paths). */
import type { ReferentialEntity } from './types.ts';

export const collectionSegment = (e: ReferentialEntity) =>
  e === 'customer' ? 'customers' : e === 'site' ? 'sites' : 'assets';

export const listPath = (e: ReferentialEntity) => `/referentials/${collectionSegment(e)}`;
export const newPath = (e: ReferentialEntity) => `/referentials/${collectionSegment(e)}/new`;
export const detailPath = (e: ReferentialEntity, code: string) =>
  `/referentials/${collectionSegment(e)}/${encodeURIComponent(code)}`;
export const editPath = (e: ReferentialEntity, code: string) => `${detailPath(e, code)}/edit`;
