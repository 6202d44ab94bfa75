/**
 * The Microsoft Graph calls the adapter makes (v1.0 under `<root>/me`), typed with the fields it reads.
 * Every request asks for immutable ids (`Prefer: IdType="ImmutableId"`), so a message keeps its id when
 * it moves; a server that ignores the preference answers a new id on a move, which the adapter handles
 * too. Graph's error body is `{error: {code, message, innerError}}`.
 */
import { ProviderHttp, type ProviderHttpOptions } from '../http-client';
import type { GraphFolder } from './folders';

export interface GraphMessage {
  id: string;
  receivedDateTime?: string;
  isRead?: boolean;
  isDraft?: boolean;
  flag?: { flagStatus?: string };
  categories?: string[];
  parentFolderId?: string;
  internetMessageHeaders?: { name?: string; value?: string }[];
  '@removed'?: { reason?: string };
}

export interface GraphPage<T> {
  value?: T[];
  '@odata.nextLink'?: string;
  '@odata.deltaLink'?: string;
  '@odata.count'?: number;
}

export const immutableIds = 'IdType="ImmutableId"';
/** The message properties the sync reads from lists and delta pages. */
export const messageFields = 'id,receivedDateTime,isRead,isDraft,flag,categories,parentFolderId';

/** Provider codes of a Graph error body: `error.code`, then `error.innerError.code`. */
export function graphErrorReasons(body: unknown): string[] {
  const error = (body as { error?: { code?: unknown; innerError?: { code?: unknown } } } | null)?.error;
  if (!error || typeof error !== 'object') return [];
  const reasons: string[] = [];
  if (typeof error.code === 'string') reasons.push(error.code);
  if (typeof error.innerError?.code === 'string') reasons.push(error.innerError.code);
  return reasons;
}

/** A Graph id as one path segment (ids are base64-like; '=' stays readable). */
export function segment(id: string): string {
  return encodeURIComponent(id).replace(/%3D/g, '=');
}

/** An OData date-time literal (whole seconds, UTC). */
export function odataDate(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export class GraphApi {
  readonly http: ProviderHttp;

  constructor(options: Omit<ProviderHttpOptions, 'errorReasons' | 'headers'>) {
    this.http = new ProviderHttp({ ...options, headers: { prefer: immutableIds }, errorReasons: graphErrorReasons });
  }

  folder(idOrName: string, signal?: AbortSignal): Promise<GraphFolder> {
    return this.http.json(`/me/mailFolders/${segment(idOrName)}`, { query: { $select: 'id,displayName,parentFolderId,childFolderCount' }, signal });
  }

  /** Top-level folders (`parentId` null) or a folder's children, one page. */
  folders(parentId: string | null, link: string | undefined, signal?: AbortSignal): Promise<GraphPage<GraphFolder>> {
    if (link) return this.http.json(link, { signal });
    const path = parentId === null ? '/me/mailFolders' : `/me/mailFolders/${segment(parentId)}/childFolders`;
    return this.http.json(path, { query: { $top: 100, $select: 'id,displayName,parentFolderId,childFolderCount,totalItemCount' }, signal });
  }

  /** A page of a folder's messages, newest first, or the page a next link names. */
  messages(
    folderId: string,
    options: { filter?: string; top: number; count?: boolean; select?: string; link?: string; orderBy?: string | null },
    signal?: AbortSignal,
  ): Promise<GraphPage<GraphMessage>> {
    if (options.link) return this.http.json(options.link, { signal, maxBytes: 16 * 1024 * 1024 });
    return this.http.json(`/me/mailFolders/${segment(folderId)}/messages`, {
      query: {
        $select: options.select ?? messageFields,
        $filter: options.filter,
        $orderby: options.orderBy === null ? undefined : (options.orderBy ?? 'receivedDateTime desc'),
        $top: options.top,
        $count: options.count ? 'true' : undefined,
      },
      signal,
      maxBytes: 16 * 1024 * 1024,
    });
  }

  /**
   * One delta page: the round's first request (`filter`, and `newestFirst`: `$orderby=receivedDateTime
   * desc`, the one order the delta function takes; without it the order is not guaranteed) or a
   * next/delta link, which carries what the first request asked.
   */
  delta(folderId: string, options: { link?: string; filter?: string; newestFirst?: boolean; pageSize: number }, signal?: AbortSignal): Promise<GraphPage<GraphMessage>> {
    const headers = { prefer: `odata.maxpagesize=${options.pageSize}, ${immutableIds}` };
    if (options.link) return this.http.json(options.link, { headers, signal, maxBytes: 16 * 1024 * 1024 });
    return this.http.json(`/me/mailFolders/${segment(folderId)}/messages/delta`, {
      query: { $select: messageFields, $filter: options.filter, $orderby: options.newestFirst ? 'receivedDateTime desc' : undefined },
      headers,
      signal,
      maxBytes: 16 * 1024 * 1024,
    });
  }

  message(id: string, select: string, signal?: AbortSignal): Promise<GraphMessage> {
    return this.http.json(`/me/messages/${segment(id)}`, { query: { $select: select }, signal });
  }

  /** The MIME source: null past `maxBytes`, or with `cut` its first `maxBytes` bytes and `cut: true`. */
  async mime(id: string, maxBytes: number, options: { signal?: AbortSignal; timeoutMs?: number; cut?: boolean } = {}): Promise<{ bytes: Buffer; cut: boolean } | null> {
    const answer = await this.http.request(`/me/messages/${segment(id)}/$value`, {
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      maxBytes,
      tooLarge: options.cut ? 'cut' : 'null',
      headers: { accept: 'message/rfc822, text/plain, */*' },
    });
    return answer ? { bytes: answer.bytes, cut: answer.cut } : null;
  }

  patch(id: string, body: Record<string, unknown>): Promise<GraphMessage> {
    return this.http.json(`/me/messages/${segment(id)}`, { method: 'PATCH', json: body });
  }

  move(id: string, destinationId: string): Promise<GraphMessage> {
    return this.http.json(`/me/messages/${segment(id)}/move`, { method: 'POST', json: { destinationId } });
  }

  async delete(id: string): Promise<void> {
    await this.http.request(`/me/messages/${segment(id)}`, { method: 'DELETE' });
  }
}
