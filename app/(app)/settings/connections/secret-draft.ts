/**
 * The secret part of the connection form while it is typed, its checks (the service's bounds) and
 * the `data` it becomes: one of the four `http_generic` kinds, or a map of strings for other types.
 */
import type { ConnectionKind } from '@/app/lib/mail-types';

export interface HttpDraft {
  kind: ConnectionKind;
  headerName: string;
  paramName: string;
  value: string;
  token: string;
  username: string;
  password: string;
}

export interface Pair {
  id: number;
  key: string;
  value: string;
}

export const emptyHttpDraft: HttpDraft = { kind: 'bearer', headerName: 'X-API-Key', paramName: 'api_key', value: '', token: '', username: '', password: '' };

export type HttpData =
  | { kind: 'apiKey'; headerName: string; value: string }
  | { kind: 'bearer'; token: string }
  | { kind: 'basic'; username: string; password: string }
  | { kind: 'query'; paramName: string; value: string };

export type FieldErrors = Partial<Record<'headerName' | 'paramName' | 'value' | 'token' | 'username' | 'password' | 'pairs', string>>;

export interface Messages {
  required: string;
  tooLong: (max: number) => string;
  pairsRequired: string;
  pairKeyInvalid: string;
  pairDuplicate: (key: string) => string;
  tooManyPairs: (max: number) => string;
}

function check(value: string, max: number, m: Messages): string | undefined {
  if (!value) return m.required;
  return value.length > max ? m.tooLong(max) : undefined;
}

export function httpData(draft: HttpDraft, m: Messages): { data: HttpData } | { errors: FieldErrors } {
  let errors: FieldErrors;
  let data: HttpData;
  switch (draft.kind) {
    case 'apiKey':
      errors = { headerName: check(draft.headerName.trim(), 128, m), value: check(draft.value, 4096, m) };
      data = { kind: 'apiKey', headerName: draft.headerName.trim(), value: draft.value };
      break;
    case 'bearer':
      errors = { token: check(draft.token, 4096, m) };
      data = { kind: 'bearer', token: draft.token };
      break;
    case 'basic':
      errors = { username: check(draft.username, 256, m), password: check(draft.password, 4096, m) };
      data = { kind: 'basic', username: draft.username, password: draft.password };
      break;
    case 'query':
      errors = { paramName: check(draft.paramName.trim(), 128, m), value: check(draft.value, 4096, m) };
      data = { kind: 'query', paramName: draft.paramName.trim(), value: draft.value };
      break;
  }
  return Object.values(errors).some(Boolean) ? { errors } : { data };
}

export const maxPairs = 50;

/** Keys may be any text the service accepts (1-128 chars); `__proto__` and friends it refuses. */
const refusedKeys = new Set(['__proto__', 'constructor', 'prototype']);

export function mapData(pairs: Pair[], m: Messages): { data: Record<string, string> } | { errors: FieldErrors } {
  const filled = pairs.filter((pair) => pair.key.trim() || pair.value);
  if (filled.length === 0) return { errors: { pairs: m.pairsRequired } };
  if (filled.length > maxPairs) return { errors: { pairs: m.tooManyPairs(maxPairs) } };
  const data: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const pair of filled) {
    const key = pair.key.trim();
    if (!key || key.length > 128 || refusedKeys.has(key)) return { errors: { pairs: m.pairKeyInvalid } };
    if (pair.value.length > 4096) return { errors: { pairs: m.tooLong(4096) } };
    if (Object.hasOwn(data, key)) return { errors: { pairs: m.pairDuplicate(key) } };
    data[key] = pair.value;
  }
  return { data: { ...data } };
}
