/** Every procedure with its route meta, by tRPC path (`apiKeys.create`). */
import type { RouteSpec } from './meta';
import { appRouter } from './root';

export interface RouteEntry {
  procedurePath: string;
  type: 'query' | 'mutation' | 'subscription';
  spec: RouteSpec | undefined;
}

type AnyProcedure = { _def: { type: RouteEntry['type']; meta?: { route?: RouteSpec } } };

let cache: RouteEntry[] | null = null;

export function routeTable(): RouteEntry[] {
  cache ??= Object.entries(appRouter._def.procedures as unknown as Record<string, AnyProcedure>).map(([procedurePath, procedure]) => ({
    procedurePath,
    type: procedure._def.type,
    spec: procedure._def.meta?.route,
  }));
  return cache;
}

export function routeByProcedurePath(path: string): RouteSpec | undefined {
  return routeTable().find((entry) => entry.procedurePath === path)?.spec;
}
