import { z } from 'zod';
import { isoDateTime } from '../../core/http/schemas';
import { capabilities } from './providers';

/** A provider path parameter: any text, so that an unknown one answers `oauth.unsupported_provider`. */
export const providerParam = z.object({ provider: z.string().min(1).max(100).describe('`oauth_provider_a` or `oauth_provider_b`.') });

const capability = z.enum(capabilities);
const scopeList = z.array(z.string());

export const oauthAppSchema = z
  .object({
    provider: z.enum(['oauth_provider_a', 'oauth_provider_b']),
    configured: z.boolean().describe('An application is registered.'),
    clientId: z.string().nullable(),
    hasSecret: z.boolean(),
    clientSecretHint: z.string().nullable().describe('The secret’s last four characters (none for secrets under 8 characters).'),
    status: z.enum(['active', 'disabled']).nullable(),
    redirectUri: z.url().describe('The callback URL to register at the provider.'),
    scopes: scopeList.describe('Every scope the application may ask for (to allow in the provider’s console).'),
    scopesByCapability: z
      .object({ mail: scopeList, drive: scopeList, calendar: scopeList, sheets: scopeList, files: scopeList, sites: scopeList })
      .describe('Exactly what a connection for each capability asks for; empty when the provider does not offer it.'),
    clientIdPattern: z.string().describe('Regular expression a client id must match.'),
    clientIdHint: z.string(),
    updatedAt: isoDateTime.nullable(),
  })
  .meta({ id: 'OAuthApplication' });

export type OAuthAppOutput = z.infer<typeof oauthAppSchema>;

export const putOAuthAppInput = providerParam.extend({
  clientId: z.string().trim().min(1).max(512),
  clientSecret: z.string().min(1).max(512),
  status: z.enum(['active', 'disabled']).optional().describe('Default: unchanged, `active` for a new registration.'),
});

export type PutOAuthAppInput = z.infer<typeof putOAuthAppInput>;

export const startFlowInput = providerParam.extend({
  capability: capability.default('mail').describe('What the connection is for; default `mail` (creates or reconnects a mailbox).'),
});

export const startFlowOutput = z.object({
  authorizationUrl: z.url().describe('Send the member’s browser there; the provider returns it to the callback.'),
  expiresAt: isoDateTime.describe('The flow must finish before this time (10 minutes).'),
});

/**
 * The callback's query as providers send it: `code` and `state` on consent, `error` (and a
 * description) on refusal. Other parameters providers add (`scope`, `authuser`, `session_state`…)
 * are ignored.
 */
export const callbackQuery = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(512).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(4096).optional(),
});

export type CallbackQuery = z.infer<typeof callbackQuery>;
