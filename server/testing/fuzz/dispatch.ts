/**
 * Routes a fetch Request to the handler that serves it in production, without starting Next.js: first
 * the web server's own fast path for REST calls (`isRestRequest` → `handleRestRequest`), then the
 * route files under `app/` (`route.ts`), matched the way Next's App Router matches them (static
 * segment before `[param]` before `[...catchAll]`, `(group)` folders invisible, `_private` folders
 * skipped) and the exported method handler is called with its params. New route files are picked up
 * as they are added, so the fuzz follows the application's real routing rather than a list of its own.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { handleRestRequest } from '../../http/rest-handler';
import { isRestRequest } from '../../http/rest-routing';

type Segment = { kind: 'static'; name: string } | { kind: 'param'; name: string } | { kind: 'catchAll'; name: string; optional: boolean };

interface RouteFile {
  file: string;
  segments: Segment[];
}

type RouteHandler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Response | Promise<Response>;

const routeFileNames = ['route.ts', 'route.tsx', 'route.js'];

function segmentOf(folder: string): Segment | null {
  if (folder.startsWith('(') && folder.endsWith(')')) return null;
  const optional = folder.match(/^\[\[\.\.\.(.+)\]\]$/);
  if (optional) return { kind: 'catchAll', name: optional[1], optional: true };
  const catchAll = folder.match(/^\[\.\.\.(.+)\]$/);
  if (catchAll) return { kind: 'catchAll', name: catchAll[1], optional: false };
  const param = folder.match(/^\[(.+)\]$/);
  if (param) return { kind: 'param', name: param[1] };
  return { kind: 'static', name: folder };
}

export function scanRouteFiles(appDir: string): RouteFile[] {
  const found: RouteFile[] = [];
  const walk = (dir: string, segments: Segment[]) => {
    const file = routeFileNames.map((name) => path.join(dir, name)).find((candidate) => existsSync(candidate));
    if (file) found.push({ file, segments });
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('_') || entry.name.startsWith('@') || entry.name === 'node_modules') continue;
      const segment = segmentOf(entry.name);
      walk(path.join(dir, entry.name), segment ? [...segments, segment] : segments);
    }
  };
  walk(appDir, []);
  return found;
}

function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function matchRoute(route: RouteFile, parts: string[]): Record<string, string | string[]> | null {
  const params: Record<string, string | string[]> = {};
  for (let index = 0; index < route.segments.length; index++) {
    const segment = route.segments[index];
    if (segment.kind === 'catchAll') {
      const rest = parts.slice(index);
      if (rest.length === 0 && !segment.optional) return null;
      params[segment.name] = rest.map(decodeSegment);
      return params;
    }
    const part = parts[index];
    if (part === undefined) return null;
    if (segment.kind === 'static' && segment.name !== part) return null;
    if (segment.kind === 'param') params[segment.name] = decodeSegment(part);
  }
  return parts.length === route.segments.length ? params : null;
}

const rank = { static: 0, param: 1, catchAll: 2 } as const;

/** Next's precedence: at the first segment where two routes differ, the more specific kind wins. */
function moreSpecific(a: RouteFile, b: RouteFile): number {
  for (let index = 0; index < Math.max(a.segments.length, b.segments.length); index++) {
    const left = a.segments[index] ? rank[a.segments[index].kind] : -1;
    const right = b.segments[index] ? rank[b.segments[index].kind] : -1;
    if (left !== right) return left - right;
  }
  return 0;
}

export interface Dispatcher {
  (request: Request): Promise<Response>;
  routes: readonly RouteFile[];
}

export function createDispatcher(appDir = path.resolve(process.cwd(), 'app')): Dispatcher {
  const routes = scanRouteFiles(appDir).sort(moreSpecific);
  const modules = new Map<string, Promise<Record<string, unknown>>>();
  const dispatch = (async (request: Request) => {
    const url = new URL(request.url);
    // The web server's own first step (server/http/web-server.ts): REST calls skip Next.js.
    if (isRestRequest(`${url.pathname}${url.search}`)) return handleRestRequest(request);
    const pathname = url.pathname;
    const parts = pathname.split('/').slice(1);
    if (parts.at(-1) === '') parts.pop();
    for (const route of routes) {
      const params = matchRoute(route, parts);
      if (!params) continue;
      let loading = modules.get(route.file);
      if (!loading) {
        loading = import(pathToFileURL(route.file).href) as Promise<Record<string, unknown>>;
        modules.set(route.file, loading);
      }
      const module = await loading;
      const method = request.method === 'HEAD' ? 'GET' : request.method;
      const handler = module[method] as RouteHandler | undefined;
      // What Next answers for a method the route file does not export.
      if (typeof handler !== 'function') return new Response(null, { status: 405 });
      return handler(request, { params: Promise.resolve(params) });
    }
    // Next's own 404 page: not a route of ours.
    return new Response('not found', { status: 404, headers: { 'content-type': 'text/html' } });
  }) as Dispatcher;
  dispatch.routes = routes;
  return dispatch;
}
