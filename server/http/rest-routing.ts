/** Which requests the web server hands straight to the REST adapter. */

/** REST paths served by their own route files (documents and downloads, not JSON procedures). */
const ownRouteFiles = [/^\/api\/v1\/openapi\.json(\?|$)/, /^\/api\/v1\/tables\/[^/]+\/export\.csv(\?|$)/];

/**
 * REST calls skip the Next.js request pipeline (≈ 2 ms of CPU per request, measured by `npm run bench`):
 * the custom server hands them straight to the same handler `app/api/v1/[...path]/route.ts` mounts.
 */
export function isRestRequest(url: string | undefined): boolean {
  return Boolean(url?.startsWith('/api/v1/') && !ownRouteFiles.some((pattern) => pattern.test(url)));
}
