/**
 * The Gmail API calls the adapter makes (REST v1 under `<root>/users/me`), typed with the fields it
 * reads. Errors are ProviderErrors (../http-client.ts); Gmail's error body is
 * `{error: {code, message, status, errors: [{reason, domain, message}]}}`.
 */
import { ProviderHttp, type ProviderHttpOptions } from '../http-client';
import type { GmailLabel } from './labels';
import type { GmailPart } from './parts';

export interface GmailMessageRef {
  id: string;
  threadId?: string;
}

export interface GmailMessage {
  id: string;
  threadId?: string;
  labelIds?: string[];
  historyId?: string;
  /** Receive time in epoch milliseconds, as a string. */
  internalDate?: string;
  sizeEstimate?: number;
  /** base64url RFC 5322 source (format=raw). */
  raw?: string;
  payload?: GmailPart & { headers?: { name?: string; value?: string }[] };
}

export interface GmailMessageList {
  messages?: GmailMessageRef[];
  nextPageToken?: string;
  resultSizeEstimate?: number;
}

export interface GmailHistoryRecord {
  id: string;
  messages?: GmailMessageRef[];
  messagesAdded?: { message: GmailMessage }[];
  messagesDeleted?: { message: GmailMessage }[];
  labelsAdded?: { message: GmailMessage; labelIds?: string[] }[];
  labelsRemoved?: { message: GmailMessage; labelIds?: string[] }[];
}

export interface GmailHistoryList {
  history?: GmailHistoryRecord[];
  nextPageToken?: string;
  historyId?: string;
}

export interface GmailProfile {
  emailAddress?: string;
  messagesTotal?: number;
  historyId?: string;
}

export interface ListQuery {
  labelIds?: string[];
  q?: string;
  pageToken?: string;
  maxResults: number;
  includeSpamTrash?: boolean;
}

export const historyTypes = ['messageAdded', 'messageDeleted', 'labelAdded', 'labelRemoved'];

/** Provider codes of a Gmail error body: each `errors[].reason`, then `status`. */
export function gmailErrorReasons(body: unknown): string[] {
  const error = (body as { error?: { status?: unknown; errors?: unknown } } | null)?.error;
  if (!error || typeof error !== 'object') return [];
  const reasons: string[] = [];
  if (Array.isArray(error.errors)) {
    for (const item of error.errors.slice(0, 10)) {
      const reason = (item as { reason?: unknown } | null)?.reason;
      if (typeof reason === 'string') reasons.push(reason);
    }
  }
  if (typeof error.status === 'string') reasons.push(error.status);
  return reasons;
}

const id = (value: string) => encodeURIComponent(value);

/** Quota units per call, from Google's per-method table; the path is matched from its end. */
const quotaUnitsByPath: { pattern: RegExp; units: (method: string) => number }[] = [
  { pattern: /\/users\/me\/profile$/, units: () => 1 },
  { pattern: /\/users\/me\/labels(\/[^/]+)?$/, units: (method) => (method === 'GET' ? 1 : 5) },
  { pattern: /\/users\/me\/history$/, units: () => 2 },
  { pattern: /\/users\/me\/messages\/send$/, units: () => 100 },
  { pattern: /\/users\/me\/messages\/batch(Modify|Delete)$/, units: () => 50 },
  { pattern: /\/users\/me\/messages\/[^/]+$/, units: (method) => (method === 'DELETE' ? 10 : 5) },
];

/** What one Gmail API call costs of the user's per-minute quota (5 units when the table has no entry). */
export function gmailQuotaUnits(method: string, url: URL): number {
  for (const entry of quotaUnitsByPath) if (entry.pattern.test(url.pathname)) return entry.units(method);
  return 5;
}

export class GmailApi {
  readonly http: ProviderHttp;

  constructor(options: Omit<ProviderHttpOptions, 'errorReasons'>) {
    this.http = new ProviderHttp({ costOf: gmailQuotaUnits, ...options, errorReasons: gmailErrorReasons });
  }

  profile(signal?: AbortSignal): Promise<GmailProfile> {
    return this.http.json('/users/me/profile', { signal });
  }

  async labels(signal?: AbortSignal): Promise<GmailLabel[]> {
    const answer = await this.http.json<{ labels?: GmailLabel[] }>('/users/me/labels', { signal, maxBytes: 4 * 1024 * 1024 });
    return Array.isArray(answer.labels) ? answer.labels.filter((label) => typeof label?.id === 'string') : [];
  }

  createLabel(name: string, signal?: AbortSignal): Promise<GmailLabel> {
    return this.http.json('/users/me/labels', {
      method: 'POST',
      json: { name, labelListVisibility: 'labelShow', messageListVisibility: 'show' },
      signal,
    });
  }

  listMessages(query: ListQuery, signal?: AbortSignal): Promise<GmailMessageList> {
    return this.http.json('/users/me/messages', {
      query: {
        labelIds: query.labelIds,
        q: query.q,
        pageToken: query.pageToken,
        maxResults: query.maxResults,
        includeSpamTrash: query.includeSpamTrash ? 'true' : undefined,
      },
      signal,
    });
  }

  /** format=raw; null when the answer passes `maxSourceBytes` once decoded (base64 is 4/3 of it). */
  async getRaw(messageId: string, maxSourceBytes: number, signal?: AbortSignal, timeoutMs?: number): Promise<GmailMessage | null> {
    const answer = await this.http.request(`/users/me/messages/${id(messageId)}`, {
      query: { format: 'raw' },
      signal,
      timeoutMs,
      maxBytes: Math.ceil((maxSourceBytes * 4) / 3) + 64 * 1024,
      tooLarge: 'null',
    });
    if (answer === null) return null;
    return JSON.parse(answer.bytes.toString('utf8')) as GmailMessage;
  }

  getMetadata(messageId: string, signal?: AbortSignal): Promise<GmailMessage> {
    return this.http.json(`/users/me/messages/${id(messageId)}`, { query: { format: 'metadata' }, signal });
  }

  getFull(messageId: string, signal?: AbortSignal): Promise<GmailMessage> {
    return this.http.json(`/users/me/messages/${id(messageId)}`, { query: { format: 'full' }, signal, maxBytes: 64 * 1024 * 1024 });
  }

  /** An attachment's decoded bytes (base64url `data`); null past `maxBytes`. */
  async attachment(messageId: string, attachmentId: string, maxBytes: number, timeoutMs?: number): Promise<Buffer | null> {
    const answer = await this.http.request(`/users/me/messages/${id(messageId)}/attachments/${id(attachmentId)}`, {
      maxBytes: Math.ceil((maxBytes * 4) / 3) + 64 * 1024,
      tooLarge: 'null',
      timeoutMs,
    });
    if (answer === null) return null;
    const data = (JSON.parse(answer.bytes.toString('utf8')) as { data?: unknown }).data;
    return typeof data === 'string' ? Buffer.from(data, 'base64url') : Buffer.alloc(0);
  }

  getMinimal(messageId: string, signal?: AbortSignal): Promise<GmailMessage> {
    return this.http.json(`/users/me/messages/${id(messageId)}`, { query: { format: 'minimal' }, signal });
  }

  history(startHistoryId: string, maxResults: number, pageToken: string | undefined, signal?: AbortSignal): Promise<GmailHistoryList> {
    return this.http.json('/users/me/history', {
      query: { startHistoryId, maxResults, pageToken, historyTypes },
      signal,
      maxBytes: 16 * 1024 * 1024,
    });
  }

  modify(messageId: string, add: string[], remove: string[]): Promise<GmailMessage> {
    return this.http.json(`/users/me/messages/${id(messageId)}/modify`, { method: 'POST', json: { addLabelIds: add, removeLabelIds: remove } });
  }

  trash(messageId: string): Promise<GmailMessage> {
    return this.http.json(`/users/me/messages/${id(messageId)}/trash`, { method: 'POST' });
  }

  untrash(messageId: string): Promise<GmailMessage> {
    return this.http.json(`/users/me/messages/${id(messageId)}/untrash`, { method: 'POST' });
  }

  async delete(messageId: string): Promise<void> {
    await this.http.request(`/users/me/messages/${id(messageId)}`, { method: 'DELETE' });
  }
}
