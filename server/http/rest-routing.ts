/** Which requests the web server hands straight to the API handlers rather than to Next.js. */

/** REST paths served by their own route files (documents and downloads, not JSON procedures). */
const ownRouteFiles = [/^\/api\/v1\/openapi\.json(\?|$)/, /^\/api\/v1\/tables\/[^/]+\/export\.csv(\?|$)/];

/**
 * REST and tRPC calls skip the Next.js request pipeline (≈ 2 ms of CPU per request, measured by
 * `npm run bench`), and their bodies are read from the socket by our bounded reader.
 */
export function isRestRequest(url: string | undefined): boolean {
  return Boolean(url?.startsWith('/api/v1/') && !ownRouteFiles.some((pattern) => pattern.test(url)));
}

export function isTrpcRequest(url: string | undefined): boolean {
  return Boolean(url?.startsWith('/api/trpc/'));
}
