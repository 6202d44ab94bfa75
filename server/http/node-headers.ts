/**
 * A node:http request's headers read the way a fetch `Headers` answers `get` and `has`, without building one
 * (the web server's direct path for bodiless REST requests, rest-direct.ts). node:http has already lower-cased
 * the names and joined a repeated header's values (`, `, or `; ` for `cookie`), as `Headers` would; only
 * `set-cookie` stays a list, joined here as `Headers.get` joins it.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHeaders } from '../core/http/client-headers';

/** A class rather than closures per request: tsx names every closure it keeps, one defineProperty each (issue 25 §2). */
class NodeRequestHeaders implements RequestHeaders {
  constructor(private readonly headers: IncomingHttpHeaders) {}

  get(name: string): string | null {
    const value = this.valueOf(name);
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }

  has(name: string): boolean {
    return this.valueOf(name) !== undefined;
  }

  private valueOf(name: string): string | string[] | undefined {
    const key = name.toLowerCase();
    // Own keys only: a name such as `constructor` must not find the prototype's function.
    return Object.hasOwn(this.headers, key) ? this.headers[key] : undefined;
  }
}

export function nodeRequestHeaders(headers: IncomingHttpHeaders): RequestHeaders {
  return new NodeRequestHeaders(headers);
}
