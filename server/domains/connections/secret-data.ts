/**
 * What a connection's secret may be, and what may be shown of it.
 *
 * - `http_generic`: one of four kinds, each with its bounds (`apiKey` header, `bearer` token, `basic`
 *   user and password, `query` parameter).
 * - any other type: a map of strings to strings, bounded (50 keys of 1-128 characters, values of at
 *   most 4,096); a `__proto__` key is refused rather than silently dropped (core/http/own-record.ts).
 *
 * Types managed elsewhere cannot be created or changed here: `imap` (written by the IMAP mailbox
 * connection) and the OAuth grants (written by the OAuth callback).
 */
import { z } from 'zod';
import { secretHint } from '../../core/crypto/secret-box';
import { ownRecord } from '../../core/http/own-record';

export const httpGenericType = 'http_generic';
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

export const secretData = z.union([httpGenericData, secretMap]).describe('The secret: for `http_generic` one of its four kinds, for another type a map of strings. Never returned.');

export type SecretData = HttpGenericData | Record<string, string>;

/** Checks `data` against its type: the four kinds for `http_generic`, the map otherwise. Issues are paths under `data`. */
export function checkDataForType(type: string, data: unknown, context: z.RefinementCtx): void {
  const schema = type === httpGenericType ? httpGenericData : secretMap;
  const parsed = schema.safeParse(data);
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

/** The last characters of the secret part of an `http_generic` secret (at most 4; none for short or map secrets). */
export function hintOf(type: string, data: SecretData): string | null {
  if (type !== httpGenericType) return null;
  const secret = data as HttpGenericData;
  const text = secret.kind === 'bearer' ? secret.token : secret.kind === 'basic' ? secret.password : secret.value;
  return secretHint(text) || null;
}
