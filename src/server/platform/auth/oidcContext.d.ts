/** oidc-provider's request context store (lib/helpers/als.js): see auth/index.ts. */
declare module 'oidc-provider/lib/helpers/als.js' {
  import type { AsyncLocalStorage } from 'node:async_hooks';

  const als: AsyncLocalStorage<unknown>;
  export default als;
}
