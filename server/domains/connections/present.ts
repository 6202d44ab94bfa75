/** Stored connections to the API shape: never the sealed secret, optional fields only when they hold something. */
import type { Credential } from '../../generated/prisma/client';
import { iso } from '../../core/http/schemas';
import type { ConnectionOutput } from './schemas';
import { httpGenericType, isOAuthGrantType } from './secret-data';

const kinds = new Set(['apiKey', 'bearer', 'basic', 'query']);

export function presentConnection(row: Credential): ConnectionOutput {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    scope: row.scope === 'org' ? 'org' : 'member',
    ...(row.kind && kinds.has(row.kind) ? { kind: row.kind as ConnectionOutput['kind'] } : {}),
    ...(row.integration ? { integration: row.integration } : {}),
    ...(row.environment ? { environment: row.environment } : {}),
    ...(row.hint ? { hint: [...row.hint].slice(-4).join('') } : {}),
    ...(isOAuthGrantType(row.type) ? { capabilities: row.capabilities } : {}),
    ...(row.type === httpGenericType && row.allowedHosts.length > 0 ? { allowedHosts: row.allowedHosts } : {}),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}
