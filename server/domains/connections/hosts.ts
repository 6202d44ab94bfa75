/**
 * Where an `http_generic` connection's secret may go (issue 18, item 2): the hosts it is bound to,
 * and the header or query parameter it travels in (`sentAs`, kept in clear so a test run shows it
 * without opening the secret).
 *
 * Rules: `allowedHosts` belongs to `http_generic` connections only (400 `credential.bad_request`,
 * `details.reason` `hosts_not_applicable` otherwise); an organisation connection cannot be created
 * without them (`hosts_required`), since every member may use it and must not be able to point it at
 * a server of their own. A member's own connection may omit them: it is bound to the first host a live
 * run sends it to (server/engine-adapters/http-credential.ts). Entries are normalised by
 * server/core/net/allowed-hosts.ts (the input schema has already refused invalid ones).
 */
import { normaliseAllowedHosts } from '../../core/net/allowed-hosts';
import { appError } from '../../core/errors/app-error';
import { httpGenericType, type HttpGenericData, type SecretData } from './secret-data';

function refuse(reason: 'hosts_not_applicable' | 'hosts_required', type: string): never {
  const message =
    reason === 'hosts_required'
      ? 'An organisation http_generic connection needs allowedHosts: the hosts its secret may be sent to.'
      : `allowedHosts applies to http_generic connections only, not ${type}.`;
  throw appError('credential.bad_request', { message, details: { reason, issues: [{ path: 'allowedHosts', code: 'custom', message }] } });
}

/** The hosts to store with a new connection ([] for other types, and for a member's own connection given none). */
export function hostsForCreate(type: string, scope: 'member' | 'org', allowedHosts: string[] | undefined): string[] {
  if (type !== httpGenericType) {
    if (allowedHosts !== undefined) refuse('hosts_not_applicable', type);
    return [];
  }
  if (allowedHosts === undefined) {
    if (scope === 'org') refuse('hosts_required', type);
    return [];
  }
  return normaliseAllowedHosts(allowedHosts);
}

/** The hosts an update replaces (undefined: kept as they are). */
export function hostsForUpdate(type: string, allowedHosts: string[] | undefined): string[] | undefined {
  if (allowedHosts === undefined) return undefined;
  if (type !== httpGenericType) refuse('hosts_not_applicable', type);
  return normaliseAllowedHosts(allowedHosts);
}

/** The header (lower case) or query parameter an `http_generic` secret travels in; null for other types. */
export function sentAsOf(type: string, data: SecretData): string | null {
  if (type !== httpGenericType) return null;
  const secret = data as HttpGenericData;
  switch (secret.kind) {
    case 'apiKey':
      return secret.headerName.toLowerCase();
    case 'query':
      return secret.paramName;
    default:
      return 'authorization';
  }
}
