import { z } from 'zod';
import { isoDateTime } from '../../core/http/schemas';
import { aiProviders } from '../llm/catalogue';
import { checkDataForType, connectionType, secretData } from './secret-data';

export const connectionSchema = z
  .object({
    id: z.uuid(),
    type: z.string().describe('`http_generic`, `imap`, `llm_provider`, `mail_provider_a_oauth`, `mail_provider_b_oauth`, or any other string.'),
    name: z.string(),
    scope: z.enum(['member', 'org']),
    kind: z.enum(['apiKey', 'bearer', 'basic', 'query']).optional().describe('`http_generic` only.'),
    integration: z.string().optional().describe('`llm_provider`: the AI provider of the key.'),
    environment: z.string().optional(),
    hint: z.string().max(4).optional().describe('The last characters of the secret (at most 4), when it is long enough to show them.'),
    capabilities: z.array(z.string()).optional().describe('OAuth grants: what the grant serves (`mail`, `drive`, …).'),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'Connection' });

export type ConnectionOutput = z.infer<typeof connectionSchema>;

export const listConnectionsInput = z.object({
  type: connectionType.optional().describe('Only connections of this type; OAuth grants are listed only when their type is asked for.'),
});

const name = z.string().trim().min(1).max(80);

export const createConnectionInput = z
  .object({
    type: connectionType,
    name,
    scope: z.enum(['member', 'org']).default('member').describe('`org` (shared with every member) is reserved to administrators.'),
    // A union with a preprocessed member reads as optional to the document generator; it is not.
    data: secretData.nonoptional(),
  })
  .superRefine((body, context) => checkDataForType(body.type, body.data, context));

export type CreateConnectionInput = z.infer<typeof createConnectionInput>;

export const updateConnectionInput = z.object({
  id: z.uuid(),
  name,
  data: secretData.optional().describe('Without it the secret is kept; with it the secret is replaced entirely (an `http_generic` connection may change kind).'),
});

export type UpdateConnectionInput = z.infer<typeof updateConnectionInput>;

export const createConnectionOutput = z.object({ id: z.uuid() });
export const connectionOutput = z.object({ credential: connectionSchema });
export const connectionListOutput = z.object({ items: z.array(connectionSchema) });
export const deleteConnectionOutput = z.object({ id: z.uuid(), deleted: z.literal(true) });

export const memberKeysSettingsOutput = z.object({
  allowed: z.boolean().describe('Whether this instance lets members store their own AI keys (`llm_provider` connections).'),
  providers: z
    .array(
      z.object({
        provider: z.enum(aiProviders),
        apiKey: z.enum(['required', 'optional']).describe('Whether a key is needed for this provider.'),
        baseUrl: z.enum(['required', 'optional']).describe('Whether a base URL is needed (optional: the provider’s usual address).'),
      }),
    )
    .describe('What each provider needs in an `llm_provider` secret.'),
});
