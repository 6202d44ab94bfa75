/**
 * The instance's client of its operator's control plane (docs/support-protocol.md). Every call goes through the
 * network guard with the operator's host, and only it, allowed explicitly (it may be a private address in a
 * self-hosted setup); redirects are not followed. Answers are bounded in size and time and parsed strictly.
 * Whatever goes wrong (unreachable, timeout, slow, 5xx, 4xx, garbage, too large) is a `ControlPlaneError`: the
 * sync loop treats every one as a failed exchange to retry, never as a crash. The secret is only ever an HMAC key:
 * it is in no header, no URL, no log line and no error.
 */
import type { z } from 'zod';
import type { ControlPlaneLink } from '../../../core/control-plane-config';
import { guardedFetch } from '../../../core/net/guarded-fetch';
import { NetworkGuardError } from '../../../core/net/network-guard';
import { parseIpLiteral } from '../../../core/net/ip-classify';
import {
  brandingAnswer,
  changesAnswer,
  knownChangeTypes,
  PROTOCOL_VERSION,
  protocolHeaders,
  protocolPaths,
  receiptAnswer,
  wireChange,
  wireLimits,
  type PutMessageBody,
  type PutThreadBody,
  type ReceiptAnswer,
  type WireChange,
} from './protocol';
import { newNonce, sign } from './signature';
import type { OperatorBranding, SupportChange, SupportOutboxItem } from './store';

/** The link configured by the operator (`config().controlPlane`). */
export type { ControlPlaneLink };

export type ControlPlaneErrorKind =
  | 'unreachable'
  | 'refused_by_guard'
  | 'timeout'
  | 'redirect'
  | 'server_error'
  | 'client_error'
  | 'unauthorized'
  | 'malformed'
  | 'too_large';

/** A failed exchange. The message names the kind and the status only: no URL, header or body. */
export class ControlPlaneError extends Error {
  constructor(
    readonly kind: ControlPlaneErrorKind,
    readonly status: number | null = null,
  ) {
    super(status === null ? `control plane: ${kind}` : `control plane: ${kind} (HTTP ${status})`);
    this.name = 'ControlPlaneError';
  }
}

export type ChangesPage = { changes: SupportChange[]; nextCursor: string; hasMore: boolean; skipped: number };

export interface ControlPlaneClient {
  deliver(item: SupportOutboxItem): Promise<ReceiptAnswer>;
  changes(cursor: string | null, limit?: number): Promise<ChangesPage>;
  branding(): Promise<OperatorBranding | null>;
}

export type ControlPlaneClientOptions = {
  /** The whole exchange, answer body included. Default 15 s. */
  timeoutMs?: number;
  connectTimeoutMs?: number;
  /** Seconds since the epoch (tests move the clock). */
  nowSeconds?: () => number;
  /** DNS for the guard (tests). */
  lookup?: Parameters<typeof guardedFetch>[2]['lookup'];
};

export function createControlPlaneClient(link: ControlPlaneLink, options: ControlPlaneClientOptions = {}): ControlPlaneClient {
  const base = new URL(link.url);
  const basePath = base.pathname.replace(/\/+$/, '');
  const hostName = base.hostname.toLowerCase().replace(/\.$/, '');
  const literal = parseIpLiteral(base.hostname.replace(/^\[|\]$/g, ''));
  // The operator's host only: a name as written, or its literal address (the guard asks with either).
  const allowAddress = (host: string, address: string) =>
    host === hostName || (literal !== null && (host === literal.address || address === literal.address));
  const nowSeconds = options.nowSeconds ?? (() => Math.floor(Date.now() / 1000));

  async function exchange(method: 'GET' | 'PUT', path: string, query: URLSearchParams | null, body: unknown, maxBytes: number): Promise<{ status: number; json: unknown }> {
    const queryText = query && [...query.keys()].length > 0 ? `?${query.toString()}` : '';
    const pathAndQuery = `${basePath}${path}${queryText}`;
    const text = body === undefined ? '' : JSON.stringify(body);
    const timestamp = nowSeconds();
    const nonce = newNonce();
    const headers: Record<string, string> = {
      accept: 'application/json',
      [protocolHeaders.version]: PROTOCOL_VERSION,
      [protocolHeaders.instance]: link.instanceId,
      [protocolHeaders.timestamp]: String(timestamp),
      [protocolHeaders.nonce]: nonce,
      [protocolHeaders.signature]: sign(link.secret, { method, pathAndQuery, timestamp, nonce, body: text }),
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const url = new URL(pathAndQuery, base.origin);
    let response;
    try {
      response = await guardedFetch(
        url,
        { method, headers, body: body === undefined ? undefined : text },
        {
          allowPrivate: false,
          allowAddress,
          lookup: options.lookup,
          followRedirects: false,
          timeoutMs: options.timeoutMs ?? 15_000,
          connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
          checkHop: (hop) => {
            if (hop.origin !== base.origin) throw new ControlPlaneError('redirect');
          },
        },
      );
    } catch (error) {
      throw asExchangeError(error);
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => {});
      throw new ControlPlaneError('redirect', response.status);
    }
    let raw: string;
    try {
      raw = await readBounded(response.body, maxBytes);
    } catch (error) {
      throw asExchangeError(error);
    }
    if (response.status >= 500) throw new ControlPlaneError('server_error', response.status);
    if (response.status === 401 || response.status === 403) throw new ControlPlaneError('unauthorized', response.status);
    if (response.status >= 400) throw new ControlPlaneError('client_error', response.status);
    if (response.headers.get(protocolHeaders.version) !== PROTOCOL_VERSION) throw new ControlPlaneError('malformed', response.status);
    try {
      return { status: response.status, json: JSON.parse(raw) as unknown };
    } catch {
      throw new ControlPlaneError('malformed', response.status);
    }
  }

  function parsed<Schema extends z.ZodType>(schema: Schema, value: unknown, status: number): z.output<Schema> {
    const result = schema.safeParse(value);
    if (!result.success) throw new ControlPlaneError('malformed', status);
    return result.data;
  }

  return {
    async deliver(item) {
      const author = { name: item.author.name, memberId: item.author.memberId };
      let path: string;
      let body: PutThreadBody | PutMessageBody;
      if (item.type === 'thread') {
        path = protocolPaths.thread(link.instanceId, item.threadId);
        body = {
          kind: item.kind,
          subject: item.subject,
          author,
          createdAt: item.createdAt.toISOString(),
          firstMessage: { id: item.messageId, body: item.body, createdAt: item.createdAt.toISOString() },
        };
      } else {
        path = protocolPaths.message(link.instanceId, item.threadId, item.messageId);
        body = { author, body: item.body, createdAt: item.createdAt.toISOString() };
      }
      const { status, json } = await exchange('PUT', path, null, body, wireLimits.answerBytes);
      const receipt = parsed(receiptAnswer, json, status);
      // A receipt for another id is not a receipt for this one.
      if (receipt.threadId !== item.threadId || receipt.messageId !== item.messageId) throw new ControlPlaneError('malformed', status);
      return receipt;
    },

    async changes(cursor, limit = wireLimits.changesPerPage) {
      const query = new URLSearchParams();
      if (cursor !== null) query.set('cursor', cursor);
      query.set('limit', String(limit));
      const { status, json } = await exchange('GET', protocolPaths.changes(link.instanceId), query, undefined, wireLimits.changesAnswerBytes);
      const page = parsed(changesAnswer, json, status);
      const changes: SupportChange[] = [];
      let skipped = 0;
      for (const raw of page.changes) {
        if (!knownChangeTypes.includes(raw.type)) {
          skipped += 1;
          continue;
        }
        changes.push(toStoreChange(parsed(wireChange, raw, status)));
      }
      return { changes, nextCursor: page.nextCursor, hasMore: page.hasMore, skipped };
    },

    async branding() {
      const { status, json } = await exchange('GET', protocolPaths.branding(link.instanceId), null, undefined, wireLimits.answerBytes);
      return parsed(brandingAnswer, json, status).branding;
    },
  };
}

function toStoreChange(change: WireChange): SupportChange {
  if (change.type === 'team_message') {
    const { messageId, ...rest } = change;
    return { ...rest, operatorMessageId: messageId };
  }
  return change;
}

/** Reads at most `maxBytes` of the answer, as UTF-8; beyond, `too_large` (the rest is not read). */
type AnswerBody = { getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }>; cancel(): Promise<void> } };

async function readBounded(body: AnswerBody | null, maxBytes: number): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done || !value) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new ControlPlaneError('too_large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function asExchangeError(error: unknown): ControlPlaneError {
  if (error instanceof ControlPlaneError) return error;
  if (error instanceof NetworkGuardError) return new ControlPlaneError('refused_by_guard');
  const name = (error as { name?: string } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return new ControlPlaneError('timeout');
  return new ControlPlaneError('unreachable');
}
