/**
 * What a connection's secret may be, and what may be shown of it.
 *
 * - `http_generic`: one of four kinds, each with its bounds (`apiKey` header, `bearer` token, `basic`
 *   user and password, `query` parameter).
 * - any other type: a map of strings to strings, bounded (50 keys of 1-128 characters, values of at
 *   most 4,096); a `__proto__` key is refused rather than silently dropped (core/http/own-record.ts).
 *
 * - `llm_provider`: a member's own key for an AI provider {provider, apiKey, baseUrl}, all strings (so
 *   it is also a map of strings, as the spec says of other types); see ./llm-provider.ts.
 *
 * Types managed elsewhere cannot be created or changed here: `imap` (written by the IMAP mailbox
 * connection) and the OAuth grants (written by the OAuth callback).
 */
import { z } from 'zod';
import { secretHint } from '../../core/crypto/secret-box';
import { ownRecord } from '../../core/http/own-record';
import { aiProviders, baseUrlRequired, keylessProviders } from '../llm';

export const httpGenericType = 'http_generic';
export const llmProviderType = 'llm_provider';
export const oauthGrantTypes = ['mail_provider_a_oauth', 'mail_provider_b_oauth'] as const;
/** Types listed and deletable here, but whose name and secret only their own flows write. */
export const managedTypes: ReadonlySet<string> = new Set(['imap', ...oauthGrantTypes]);

export function isOAuthGrantType(type: string): boolean {
  return (oauthGrantTypes as readonly string[]).includes(type);
}

export const connectionType = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9_.-]*$/, 'Lower-case letters, digits, `_`, `.` and `-`, starting with a letter or digit.')
  .describe('`http_generic`, `llm_provider`, or any other type name (1-64 characters: a-z, 0-9, `_`, `.`, `-`).');

export const httpGenericData = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('apiKey'), headerName: z.string().min(1).max(128), value: z.string().min(1).max(4096) }),
    z.strictObject({ kind: z.literal('bearer'), token: z.string().min(1).max(4096) }),
    z.strictObject({ kind: z.literal('basic'), username: z.string().min(1).max(256), password: z.string().min(1).max(4096) }),
    z.strictObject({ kind: z.literal('query'), paramName: z.string().min(1).max(128), value: z.string().min(1).max(4096) }),
  ])
  .meta({ id: 'HttpGenericSecret' });

export type HttpGenericData = z.infer<typeof httpGenericData>;

export const secretMap = ownRecord(z.string().min(1).max(128), z.string().max(4096), { maxKeys: 50 })
  .describe('Any other type: up to 50 keys (1-128 characters) mapped to strings of at most 4,096 characters.')
  .meta({ id: 'SecretMap' });

export const llmProviderData = z
  .strictObject({
    provider: z.enum(aiProviders),
    apiKey: z.string().min(1).max(512).optional().describe('Required unless the provider is `ai_local` or `ai_generic_compatible`.'),
    baseUrl: z.string().trim().min(1).max(2048).optional().describe('Required for `ai_generic_compatible`; checked by the network guard.'),
  })
  .superRefine((data, context) => {
    if (data.apiKey === undefined && !keylessProviders.has(data.provider)) context.addIssue({ code: 'custom', message: 'This provider needs an API key.', path: ['apiKey'], input: data });
    if (data.baseUrl === undefined && baseUrlRequired.has(data.provider)) context.addIssue({ code: 'custom', message: 'This provider needs a base URL.', path: ['baseUrl'], input: data });
  })
  .meta({ id: 'LlmProviderSecret' });

export type LlmProviderData = z.infer<typeof llmProviderData>;

export const secretData = z.union([httpGenericData, secretMap]).describe('The secret: for `http_generic` one of its four kinds, for another type a map of strings. Never returned.');

export type SecretData = HttpGenericData | Record<string, string>;

/** The schema of a type's secret. */
export function dataSchemaFor(type: string): z.ZodType<SecretData> {
  return type === httpGenericType ? httpGenericData : type === llmProviderType ? (llmProviderData as z.ZodType<SecretData>) : secretMap;
}

/** Checks `data` against its type: the four kinds for `http_generic`, the map otherwise. Issues are paths under `data`. */
export function checkDataForType(type: string, data: unknown, context: z.RefinementCtx): void {
  const parsed = dataSchemaFor(type).safeParse(data);
  if (parsed.success) return;
  for (const issue of parsed.error.issues) {
    context.addIssue({ code: 'custom', message: issue.message, path: ['data', ...issue.path], input: data });
  }
}

/** The `kind` shown for `http_generic` connections; null for other types. */
export function kindOf(type: string, data: SecretData): HttpGenericData['kind'] | null {
  if (type !== httpGenericType || typeof data.kind !== 'string') return null;
  return (data as HttpGenericData).kind;
}

/** The last characters of the secret part of an `http_generic` secret or an `llm_provider` key (at most 4; none for short or map secrets). */
export function hintOf(type: string, data: SecretData): string | null {
  if (type === llmProviderType) {
    const key = (data as Record<string, string>).apiKey;
    return typeof key === 'string' ? secretHint(key) || null : null;
  }
  if (type !== httpGenericType) return null;
  const secret = data as HttpGenericData;
  const text = secret.kind === 'bearer' ? secret.token : secret.kind === 'basic' ? secret.password : secret.value;
  return secretHint(text) || null;
}
