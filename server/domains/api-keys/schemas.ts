import { z } from 'zod';
import { allScopes } from '../../core/auth/scopes';
import { isoDateTime } from '../../core/http/schemas';

export const scopeSchema = z.enum(allScopes as [string, ...string[]]).meta({ id: 'Scope' });

export const apiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string().describe('First eight characters of the secret, as a landmark.'),
    scopes: z.array(scopeSchema),
    createdAt: isoDateTime,
    expiresAt: isoDateTime.nullable(),
    revokedAt: isoDateTime.nullable(),
    lastUsedAt: isoDateTime.nullable().describe('Minute precision.'),
  })
  .meta({ id: 'ApiKey' });

export const adminApiKeySchema = apiKeySchema
  .extend({ owner: z.object({ id: z.uuid(), email: z.string(), name: z.string() }) })
  .meta({ id: 'AdminApiKey' });

export const createApiKeyInput = z.object({
  name: z.string().trim().min(1).max(120),
  scopes: z.array(scopeSchema).min(1).max(20),
  expiresInDays: z.number().int().min(1).max(730).optional(),
});

export const createApiKeyOutput = z.object({
  key: apiKeySchema,
  secret: z.string().describe('Shown once; only a hash is stored.'),
});

export const keyOutput = z.object({ key: apiKeySchema });
export const keyListOutput = z.object({ keys: z.array(apiKeySchema) });
export const adminKeyOutput = z.object({ key: adminApiKeySchema });
export const adminKeyListOutput = z.object({ keys: z.array(adminApiKeySchema) });
