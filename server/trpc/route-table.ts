/** Every procedure with its route meta, by tRPC path (`apiKeys.create`). */
import type { RouteSpec } from './meta';
import { appRouter } from './root';

export interface RouteEntry {
  procedurePath: string;
  type: 'query' | 'mutation' | 'subscription';
  spec: RouteSpec | undefined;
}

type AnyProcedure = { _def: { type: RouteEntry['type']; meta?: { route?: RouteSpec } } };

const cache = new WeakMap<object, RouteEntry[]>();

export function routeTable(router: { _def: { procedures: object } } = appRouter): RouteEntry[] {
  let table = cache.get(router);
  if (!table) {
    table = Object.entries(router._def.procedures as Record<string, AnyProcedure>).map(([procedurePath, procedure]) => ({
      procedurePath,
      type: procedure._def.type,
      spec: procedure._def.meta?.route,
    }));
    cache.set(router, table);
  }
  return table;
}

export function routeByProcedurePath(path: string, router?: { _def: { procedures: object } }): RouteSpec | undefined {
  return routeTable(router).find((entry) => entry.procedurePath === path)?.spec;
}
