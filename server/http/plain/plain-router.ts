/**
 * Finds the plain route of a request from the declarations alone (no hand-written path list).
 * A `{name}` matches a non-empty part of one path segment (`{id}` or `{id}.csv`); everything else matches
 * literally.
 */
import { appError } from '../../core/errors/app-error';
import type { PlainRoute } from './plain-route';

export interface CompiledRoute {
  route: PlainRoute;
  pattern: RegExp;
  paramNames: string[];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function compileRoute(route: PlainRoute): CompiledRoute {
  const paramNames: string[] = [];
  // Split keeps the captured names at odd indexes: literal, name, literal, name, ...
  const source = route.path
    .split(/\{([A-Za-z][A-Za-z0-9_]*)\}/)
    .map((part, index) => {
      if (index % 2 === 0) return escapeRegExp(part);
      paramNames.push(part);
      return '([^/]+)';
    })
    .join('');
  return { route, pattern: new RegExp(`^${source}$`), paramNames };
}

export interface PlainRouter {
  routes: readonly PlainRoute[];
  /** True when some route has this path (any method): the web server hands it to the API handler. */
  hasPath(pathname: string): boolean;
  /** The route for this method and path with its raw (decoded) path parameters, or null. */
  match(method: string, pathname: string): { route: PlainRoute; params: Record<string, string> } | null;
}

function decodeSegment(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw appError('request.bad_request', { message: 'A path segment is not valid percent-encoding.', details: { reason: 'bad_path' } });
  }
}

export function createPlainRouter(routes: readonly PlainRoute[]): PlainRouter {
  const compiled = routes.map(compileRoute);
  const seen = new Set<string>();
  for (const route of routes) {
    const name = `${route.method} ${route.path}`;
    if (seen.has(name)) throw new Error(`plain route declared twice: ${name}`);
    seen.add(name);
  }
  return {
    routes,
    hasPath: (pathname) => compiled.some(({ pattern }) => pattern.test(pathname)),
    match(method, pathname) {
      // HEAD is GET without a body (node:http drops the body of an answer to HEAD).
      const wanted = method === 'HEAD' ? 'GET' : method;
      for (const { route, pattern, paramNames } of compiled) {
        if (route.method !== wanted) continue;
        const found = pattern.exec(pathname);
        if (!found) continue;
        // Own keys only: the names come from the declaration, the values from the client.
        const params = Object.fromEntries(paramNames.map((name, index) => [name, decodeSegment(found[index + 1])]));
        return { route, params };
      }
      return null;
    },
  };
}
