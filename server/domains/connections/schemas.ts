import { z } from 'zod';
import { allowedHostsBounds, normaliseAllowedHost } from '../../core/net/allowed-hosts';
import { isoDateTime } from '../../core/http/schemas';
import { aiProviders } from '../llm/schemas';
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
    allowedHosts: z
      .array(z.string())
      .optional()
      .describe(
        '`http_generic`: the hosts (or origins) the secret may be sent to, normalised. Absent on a connection made before hosts existed: an organisation one is sent nowhere until an administrator sets them; a member’s own is bound to the first host a live run sends it to.',
      ),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'Connection' });

export type ConnectionOutput = z.infer<typeof connectionSchema>;

export const listConnectionsInput = z.object({
  type: connectionType.optional().describe('Only connections of this type; OAuth grants are listed only when their type is asked for.'),
});

const name = z.string().trim().min(1).max(80);

/** What people write as hosts: checked entry by entry here (400 with the entry's path), normalised by the service. */
export const allowedHostsInput = z
  .array(z.string().max(allowedHostsBounds.maxEntryLength))
  .min(1)
  .max(allowedHostsBounds.maxEntries)
  .superRefine((list, context) => {
    list.forEach((text, index) => {
      if (text.length > allowedHostsBounds.maxEntryLength) return; // already refused by the entry's bound
      const parsed = normaliseAllowedHost(text);
      if (!parsed.ok) context.addIssue({ code: 'custom', message: parsed.message, path: [index], input: text });
    });
  })
  .describe(
    '`http_generic` only: the hosts the secret may be sent to (1-20): `api.example.com` (http or https on the standard port), `api.example.com:8443` (that port), or an origin `https://api.example.com` (that scheme only). No wildcards, paths or user names. A request or redirect to any other host fails before anything is sent. Required for `org` connections; a member’s own connection without it is bound to the first host a live run sends it to.',
  );

export const createConnectionInput = z
  .object({
    type: connectionType,
    name,
    scope: z.enum(['member', 'org']).default('member').describe('`org` (shared with every member) is reserved to administrators.'),
    // A union with a preprocessed member reads as optional to the document generator; it is not.
    data: secretData.nonoptional(),
    allowedHosts: allowedHostsInput.optional(),
  })
  .superRefine((body, context) => checkDataForType(body.type, body.data, context));

export type CreateConnectionInput = z.infer<typeof createConnectionInput>;

export const updateConnectionInput = z.object({
  id: z.uuid(),
  name,
  data: secretData.optional().describe('Without it the secret is kept; with it the secret is replaced entirely (an `http_generic` connection may change kind).'),
  allowedHosts: allowedHostsInput.optional().describe('`http_generic` only: replaces the hosts the secret may be sent to (1-20, same forms as on creation); without it they are kept.'),
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
