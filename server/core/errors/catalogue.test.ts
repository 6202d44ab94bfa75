import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { errorCatalogue, errorCodes, statusOf } from './catalogue';

// The repository keeps a copy of the contract (docs/SPEC.md) so a fresh clone tests against it.
const specPath = fileURLToPath(new URL('../../../docs/SPEC.md', import.meta.url));

/** Every `area.reason` code the spec's Errors section names (the `imap.*` / `smtp.*` family expanded). */
function specErrorCodes(): string[] {
  const spec = readFileSync(specPath, 'utf8');
  const section = spec.slice(spec.indexOf('## Errors'), spec.indexOf('### Run failure handling'));
  const notCodes = new Set(['area.reason']);
  const codes = new Set(
    [...section.matchAll(/`([a-z_]+\.[a-z_]+)`/g)]
      .map((match) => match[1])
      .filter((code) => !notCodes.has(code) && !code.startsWith('details.')),
  );
  for (const family of ['imap', 'smtp']) {
    for (const reason of ['host_not_found', 'unreachable', 'tls_failed', 'auth_failed']) codes.add(`${family}.${reason}`);
  }
  return [...codes];
}

describe('error catalogue', () => {
  it('holds every code the spec lists', () => {
    const missing = specErrorCodes().filter((code) => !(code in errorCatalogue));
    expect(missing).toEqual([]);
  });

  it.each([
    ['request.bad_request', 400],
    ['auth.unauthenticated', 401],
    ['auth.forbidden', 403],
    ['api_key.scope_missing', 403],
    ['api_key.rate_limited', 429],
    ['auth.too_many_attempts', 429],
    ['request.payload_too_large', 413],
    ['idempotency.invalid_key', 400],
    ['tables.limit_reached', 409],
    ['review.already_resolved', 409],
    ['mailbox.not_active', 409],
    ['approval.already_decided', 409],
    ['workflow.execution_limit_invalid', 409],
    ['templates.forbidden_node', 409],
    ['support.not_linked', 409],
  ] as const)('%s answers %i as the spec says', (code, status) => {
    expect(statusOf(code)).toBe(status);
  });

  it('gives every code a message and an HTTP error status', () => {
    for (const code of errorCodes) {
      expect(errorCatalogue[code][1].length).toBeGreaterThan(0);
      expect(statusOf(code)).toBeGreaterThanOrEqual(400);
    }
  });
});
