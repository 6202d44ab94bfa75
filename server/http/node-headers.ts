/**
 * A node:http request's headers read the way a fetch `Headers` answers `get` and `has`, without building one
 * (the web server's direct path for bodiless REST requests, rest-direct.ts). node:http has already lower-cased
 * the names and joined a repeated header's values (`, `, or `; ` for `cookie`), as `Headers` would; only
 * `set-cookie` stays a list, joined here as `Headers.get` joins it.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHeaders } from '../core/http/client-headers';

export function nodeRequestHeaders(headers: IncomingHttpHeaders): RequestHeaders {
  // Own keys only: a name such as `constructor` must not find the prototype's function.
  const valueOf = (name: string) => {
    const key = name.toLowerCase();
    return Object.hasOwn(headers, key) ? headers[key] : undefined;
  };
  return {
    get(name) {
      const value = valueOf(name);
      if (value === undefined) return null;
      return Array.isArray(value) ? value.join(', ') : value;
    },
    has: (name) => valueOf(name) !== undefined,
  };
}
