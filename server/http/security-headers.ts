/**
 * Security headers of the web server's answers: no page of the application may be framed by another
 * page (clickjacking of the send and approve buttons, from a sibling subdomain or another app on the
 * same host: same-site is not same-origin), and the pages run only the scripts Next.js itself emits.
 *
 * Pages (everything Next.js serves) get a Content-Security-Policy with a fresh nonce per request. The
 * nonce is also put on the request as a `Content-Security-Policy` header, which is where Next.js reads
 * it (its `proxy` would do the same) to stamp its own inline bootstrap and its script tags; every page
 * is rendered per request (the root layout reads cookies), so no cached page carries a stale nonce.
 * `'strict-dynamic'` then lets those scripts load the chunks they need and nothing else runs: no
 * injected inline script, no script from another origin.
 *
 * The trade-off is on styles: `style-src` keeps `'unsafe-inline'`. React style attributes, the flow
 * editor and the code editor set inline styles, and the reading frame of a message (a sandboxed
 * `srcdoc` frame, which inherits this policy) shows mail whose formatting is inline styles; a nonce
 * would switch `'unsafe-inline'` off and break all three. Injected styles cannot run code. Images may
 * come from `https:` (branding logos, remote images of a message once its reader allows them).
 *
 * API answers (JSON, downloads, email-link pages) get `X-Frame-Options: DENY` and a policy that loads
 * nothing and may not be framed, unless the route set its own (the approval link pages do).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export function newNonce(): string {
  return randomBytes(18).toString('base64');
}

/** The policy of an application page rendered with `nonce`. Development adds what Next's dev runtime needs (eval for fast refresh). */
export function pagePolicy(nonce: string, options: { dev: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The policy of an API answer that sets none: it loads nothing and is never framed. */
export const apiPolicy = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/**
 * Stamps a page request before Next.js handles it: the policy with a fresh nonce on the answer, and
 * on the request where Next.js reads the nonce (a client's own copy of that header is replaced).
 */
export function securePageRequest(req: IncomingMessage, res: ServerResponse, options: { dev: boolean }): void {
  const policy = pagePolicy(newNonce(), options);
  req.headers['content-security-policy'] = policy;
  delete req.headers['content-security-policy-report-only'];
  res.setHeader('Content-Security-Policy', policy);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
}

/** The headers an API answer gets when its route did not set them. */
export function apiSecurityHeaders(has: (name: string) => boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!has('content-security-policy')) headers['content-security-policy'] = apiPolicy;
  if (!has('x-frame-options')) headers['x-frame-options'] = 'DENY';
  if (!has('x-content-type-options')) headers['x-content-type-options'] = 'nosniff';
  return headers;
}
