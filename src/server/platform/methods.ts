/**
 * Methods (RFC 9110 §9, §15.5.6, §15.6.2; docs/api/README.md):
 *
 * - a method of the service (GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS) on a path that
 *   exists but does not take it: `405 route.method.notallowed` with `Allow` listing the
 *   methods the path takes;
 * - any other method (CONNECT, TRACE, PROPFIND, a name HTTP does not define...), on any
 *   path: `501 request.method.notimplemented`;
 * - a path that does not exist: `404 route.not.found`.
 *
 * The paths a method takes come from the routes as they are registered (onRoute): the
 * service's endpoints give theirs with the literal prefixes of their values (`code:`,
 * `uuid:`), so `DELETE .../customers/uuid:x` is told apart from `.../code:x`. A catch-all
 * route (`/*`: the console's pages, `/oauth/*`) says nothing of which paths exist.
 */
import type { FastifyInstance, RouteOptions } from 'fastify';

/** The methods the service implements somewhere; any other is a 501. */
export const SERVICE_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);

/** In a route's `config`: the paths it serves, as regular expressions (routes.ts). */
export interface RoutePaths {
  paths?: RegExp[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `/a/:p0/b` (Fastify's syntax) as a regular expression of the whole path. */
export function fastifyPathPattern(url: string): RegExp {
  const source = url
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : escapeRegExp(part)))
    .join('/');
  return new RegExp(`^${source}$`);
}

/** `/a/code:{x}/b/{y}` as a regular expression of the paths it serves (a value: any segment). */
export function endpointPathPattern(path: string): RegExp {
  const source = path
    .split(/(\{\w+\})/)
    .map((part) => (/^\{\w+\}$/.test(part) ? '[^/]*' : escapeRegExp(part)))
    .join('');
  return new RegExp(`^${source}$`);
}

export class MethodIndex {
  private readonly routes: { method: string; pattern: RegExp }[] = [];

  add(method: string, pattern: RegExp) {
    this.routes.push({ method, pattern });
  }

  /** Records every route `app` registers from now on. */
  watch(app: FastifyInstance) {
    app.addHook('onRoute', (route: RouteOptions) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const given = (route.config as RoutePaths | undefined)?.paths;
      if (!given && route.url.includes('*')) return;
      const patterns = given ?? [fastifyPathPattern(route.url)];
      for (const method of methods) for (const pattern of patterns) this.add(method, pattern);
    });
  }

  /** The methods `path` (without its query) takes, sorted; empty when no route serves it. */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const r of this.routes) if (r.pattern.test(path)) methods.add(r.method);
    return [...methods].sort();
  }
}
