/**
 * The files the API reference page loads, served by the instance itself: Swagger UI's bundle and
 * stylesheet straight from the installed `swagger-ui-dist` package (nothing vendored into git, nothing
 * from a CDN), and the page's own start-up script and stylesheet beside this file (`browser/`).
 *
 * Only the names in the table below exist: a request names a file, never a path. Each file is read
 * once, on first request, and kept in memory with its gzip form (the bundle is 1.7 MB, about 0.5 MB
 * gzipped) and an ETag; the answer says `no-cache`, so a browser revalidates each time and gets a 304
 * until the package (or our file) changes, and an upgrade is never hidden behind a stale cache.
 *
 * Paths come from the working directory, not from this file's location: the web process may run this
 * code from Next's compiled output (app/api/v1/[...path]/route.ts), where `import.meta.url` points into
 * `.next/`; every entry point runs from the repository root, as for the migrations
 * (server/core/migrations/migration-files.ts). The `turbopackIgnore` comments keep `next build` from
 * tracing these runtime paths.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

interface AssetSource {
  /** Relative to the repository root. */
  file: string;
  contentType: string;
}

const swaggerUiDist = 'node_modules/swagger-ui-dist';
const ownFiles = 'server/http/api-reference/browser';

/** Every file the page may load, by the name it is asked for under /api/reference/assets/. */
export const referenceAssetSources = {
  'swagger-ui-bundle.js': { file: `${swaggerUiDist}/swagger-ui-bundle.js`, contentType: 'text/javascript; charset=utf-8' },
  'swagger-ui.css': { file: `${swaggerUiDist}/swagger-ui.css`, contentType: 'text/css; charset=utf-8' },
  'openapi-30.js': { file: `${ownFiles}/openapi-30.js`, contentType: 'text/javascript; charset=utf-8' },
  'reference.js': { file: `${ownFiles}/reference.js`, contentType: 'text/javascript; charset=utf-8' },
  'reference.css': { file: `${ownFiles}/reference.css`, contentType: 'text/css; charset=utf-8' },
} satisfies Record<string, AssetSource>;

export type ReferenceAssetName = keyof typeof referenceAssetSources;

export const referenceAssetNames = Object.keys(referenceAssetSources) as ReferenceAssetName[];

export function isReferenceAssetName(name: string): name is ReferenceAssetName {
  return Object.hasOwn(referenceAssetSources, name);
}

interface LoadedAsset {
  contentType: string;
  plain: Buffer;
  gzipped: Buffer;
  etag: string;
}

const loaded = new Map<ReferenceAssetName, LoadedAsset>();

/**
 * The package's files end with a `sourceMappingURL` comment; the maps are not served (3 MB of
 * development aid), so the comment is dropped rather than sending a browser's developer tools to a 404.
 */
function withoutSourceMapComment(text: string): string {
  return text.replace(/\n?(\/\/# sourceMappingURL=\S+|\/\*# sourceMappingURL=[^*]+\*\/)\s*$/, '\n');
}

function load(name: ReferenceAssetName): LoadedAsset {
  const cached = loaded.get(name);
  if (cached) return cached;
  const source: AssetSource = referenceAssetSources[name];
  const text = readFileSync(path.resolve(/*turbopackIgnore: true*/ process.cwd(), source.file), 'utf8');
  const plain = Buffer.from(withoutSourceMapComment(text), 'utf8');
  const asset: LoadedAsset = {
    contentType: source.contentType,
    plain,
    gzipped: gzipSync(plain),
    etag: `"${createHash('sha256').update(plain).digest('base64url').slice(0, 27)}"`,
  };
  loaded.set(name, asset);
  return asset;
}

/** Whether Accept-Encoding takes gzip (named, or `*`, with a quality above 0). */
function acceptsGzip(request: Request): boolean {
  return (request.headers.get('accept-encoding') ?? '').split(',').some((part) => {
    const [coding, ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const quality = parameters.find((parameter) => parameter.startsWith('q='));
    return (coding === 'gzip' || coding === '*') && (quality === undefined || Number(quality.slice(2)) > 0);
  });
}

function matchesEtag(request: Request, etag: string): boolean {
  const header = request.headers.get('if-none-match');
  if (!header) return false;
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === etag);
}

/** The answer for one asset: 304 when the browser holds this version, else the file (gzipped when the browser takes it). */
export function referenceAssetResponse(name: ReferenceAssetName, request: Request): Response {
  const asset = load(name);
  const headers: Record<string, string> = {
    'content-type': asset.contentType,
    'cache-control': 'no-cache',
    etag: asset.etag,
    vary: 'Accept-Encoding',
    'x-content-type-options': 'nosniff',
  };
  if (matchesEtag(request, asset.etag)) return new Response(null, { status: 304, headers });
  if (acceptsGzip(request)) return new Response(new Uint8Array(asset.gzipped), { status: 200, headers: { ...headers, 'content-encoding': 'gzip' } });
  return new Response(new Uint8Array(asset.plain), { status: 200, headers });
}
