/**
 * A route's page, loaded with its route: the page's chunk and the i18n namespaces it uses
 * (the feature's own and the shared ones it declares), fetched together on the first visit
 * or when the router preloads the route (a link hovered). A generic page (one component for
 * several resources) gets its fixed props here, e.g. `{ entity: 'customer' }`.
 */
import { type AsyncRouteComponent, lazyRouteComponent } from '@tanstack/react-router';
import { loadNamespaces } from '../i18n/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: a page module's exports are components of any props
type PageModule = Record<string, any>;
type PropsOf<C> = C extends (props: infer P) => unknown ? P : never;

export function lazyPage<M extends PageModule, K extends keyof M & string>(
  namespaces: readonly string[],
  importer: () => Promise<M>,
  exportName: K,
  ...props: keyof PropsOf<M[K]> extends never ? [] : [PropsOf<M[K]>]
): AsyncRouteComponent<Record<string, never>> {
  const Lazy = lazyRouteComponent(
    () => Promise.all([importer(), loadNamespaces(namespaces)]).then(([mod]) => mod),
    exportName,
  ) as AsyncRouteComponent<PropsOf<M[K]>>;
  const fixed = props[0];
  if (!fixed) return Lazy as AsyncRouteComponent<Record<string, never>>;
  const Page = () => <Lazy {...fixed} />;
  // The router preloads a route's chunk through its component's `preload`.
  Page.preload = Lazy.preload;
  return Page;
}
