/**
 * A fake Microsoft Graph mail API (v1.0, `/v1.0/me/...`) for the `mail_provider_b` adapter's tests:
 * the real request and response shapes (`value`, `@odata.nextLink` with `$skiptoken`/`$skip`,
 * `@odata.deltaLink` with `$deltatoken`, `@removed: {reason}`, `@odata.count`, `Prefer:
 * odata.maxpagesize`, well-known folder names, the error body `{error: {code, message}}`), Bearer
 * tokens checked (401 otherwise), an in-memory mailbox the test changes (`addMessage`, `updateMessage`,
 * `moveMessage`, `deleteMessage`, `createFolder`) with a change log the delta rounds read, expired delta
 * state on demand (`expireDeltaTokens`: 410), and injected failures (`failNext`).
 *
 * Ids: with `idMode: 'immutable'` a move keeps the message id when the request carries
 * `Prefer: IdType="ImmutableId"` (as Graph does); `'mutable'` plays a server that ignores it (a move
 * gives a new id). Links name folders the way Graph does (`mailFolders('id')`); both spellings are read.
 *
 * `POST /me/sendMail` with a base64 MIME body (`Content-Type: text/plain`): 202, recorded in `sent`
 * (recipients from To/Cc/Bcc, the delivered copy without Bcc) and filed in Sent Items; 400
 * `ErrorMimeContentInvalidBase64String` / `ErrorInvalidRecipients` otherwise.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { bearerOf, ConcurrencyLimit, FakeApiServer, jsonBody, type FakeAnswer, type FakeRequest, QuotaWindow } from './fake-http';
import { addressesOf, withoutBcc } from './gmail-server';

export interface FakeGraphMessage {
  id: string;
  folderId: string;
  raw: Buffer;
  receivedDateTime: Date;
  isRead: boolean;
  isDraft: boolean;
  flagStatus: 'notFlagged' | 'flagged' | 'complete';
  categories: string[];
}

interface Folder {
  id: string;
  displayName: string;
  parentFolderId: string;
  wellKnown?: string;
}

interface Change {
  seq: number;
  folderId: string;
  messageId: string;
}

interface Round {
  entries: Record<string, unknown>[];
  folderId: string;
  endSeq: number;
  filter: string | null;
  select: string | null;
  /** `receivedDateTime desc` when the round's first request asked for it. */
  orderBy: string | null;
}

const wellKnownFolders: [string, string][] = [
  ['inbox', 'Inbox'],
  ['drafts', 'Drafts'],
  ['sentitems', 'Sent Items'],
  ['deleteditems', 'Deleted Items'],
  ['junkemail', 'Junk Email'],
  ['archive', 'Archive'],
  ['outbox', 'Outbox'],
];

export function graphError(code: string, message: string): { error: { code: string; message: string } } {
  return { error: { code, message } };
}

const fail = (status: number, code: string, message: string): FakeAnswer => ({ status, json: graphError(code, message) });
const notFound = () => fail(404, 'ErrorItemNotFound', 'The specified object was not found in the store.');

function graphId(): string {
  return `AAMkAG${randomBytes(12).toString('base64url')}AAA=`;
}

function odataDate(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * `receivedDateTime ge 2026-01-01T00:00:00Z and receivedDateTime lt ...` or `internetMessageId eq '<id>'`
 * → a predicate; null when not of those forms.
 */
function parseFilter(filter: string | null): ((message: FakeGraphMessage) => boolean) | null {
  if (filter === null || filter.trim() === '') return () => true;
  const byId = /^\s*internetMessageId\s+eq\s+'((?:[^']|'')*)'\s*$/i.exec(filter);
  if (byId) {
    const wanted = byId[1].replaceAll("''", "'");
    return (message) => messageIdOf(message) === wanted;
  }
  const tests: ((at: Date) => boolean)[] = [];
  for (const clause of filter.split(/\s+and\s+/i)) {
    const match = /^\s*receivedDateTime\s+(ge|gt|lt|le)\s+(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z)\s*$/i.exec(clause);
    if (!match) return null;
    const bound = Date.parse(match[2]);
    const op = match[1].toLowerCase();
    tests.push((at) => (op === 'ge' ? at.getTime() >= bound : op === 'gt' ? at.getTime() > bound : op === 'lt' ? at.getTime() < bound : at.getTime() <= bound));
  }
  return (message) => tests.every((test) => test(message.receivedDateTime));
}

function messageIdOf(message: FakeGraphMessage): string | null {
  const text = message.raw.toString('utf8');
  const head = text.slice(0, Math.max(0, text.indexOf('\r\n\r\n'))).replace(/\r\n[ \t]+/g, ' ');
  return /^message-id:\s*(.+)$/im.exec(head)?.[1].trim() ?? null;
}

function token(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function readToken<T>(text: string | null): T | null {
  if (!text) return null;
  try {
    return JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as T;
  } catch {
    return null;
  }
}

function maxPageSize(request: FakeRequest): number {
  const prefer = String(request.headers.prefer ?? '');
  const match = /odata\.maxpagesize=(\d+)/i.exec(prefer);
  return match ? Math.min(1000, Math.max(1, Number(match[1]))) : 10;
}

export interface FakeGraphSentMessage {
  id: string;
  raw: Buffer;
  delivered: Buffer;
  recipients: string[];
}

export class FakeGraphServer extends FakeApiServer {
  readonly sent: FakeGraphSentMessage[] = [];
  readonly validTokens = new Set<string>(['graph-token']);
  readonly messages = new Map<string, FakeGraphMessage>();
  readonly folders = new Map<string, Folder>();
  idMode: 'immutable' | 'mutable';
  private readonly rootId = graphId();
  private changes: Change[] = [];
  private seq = 0;
  private expiredBefore = 0;
  private rounds = new Map<string, Round>();

  /** Graph's mailbox limit: 10,000 requests per 10 minutes (Outlook service limits). */
  readonly quota = new QuotaWindow(10_000, 600);
  /**
   * Graph's other mailbox limit: 4 requests in flight (Outlook service limits, "MailboxConcurrency"). The fake
   * answers at once unless `delayMs` is set, so only a test that sets it sees requests overlap.
   */
  readonly concurrency = new ConcurrencyLimit(4);

  constructor(options: { idMode?: 'immutable' | 'mutable' } = {}) {
    super((failure) =>
      graphError(
        failure.reason ?? (failure.status === 429 ? 'TooManyRequests' : 'ServiceNotAvailable'),
        failure.status === 429 ? 'Too many requests.' : 'The service is temporarily unavailable.',
      ),
    );
    this.idMode = options.idMode ?? 'immutable';
    for (const [wellKnown, displayName] of wellKnownFolders) {
      const id = graphId();
      this.folders.set(id, { id, displayName, parentFolderId: this.rootId, wellKnown });
    }
  }

  get baseUrl(): string {
    return `${this.http.origin}/v1.0`;
  }

  /** Every delta and skip token issued so far answers 410 (the sync state is gone). */
  expireDeltaTokens(): void {
    this.expiredBefore = this.seq + 1;
    this.rounds.clear();
  }

  /** A folder's id from its id or well-known name. */
  folderId(idOrName: string): string {
    const folder = this.folder(idOrName);
    if (!folder) throw new Error(`no folder ${idOrName}`);
    return folder.id;
  }

  createFolder(displayName: string, parent?: string): string {
    const id = graphId();
    this.folders.set(id, { id, displayName, parentFolderId: parent ? this.folderId(parent) : this.rootId });
    return id;
  }

  addMessage(
    raw: Buffer | string,
    options: { folder?: string; receivedDateTime?: Date; isRead?: boolean; flagged?: boolean; categories?: string[]; isDraft?: boolean } = {},
  ): string {
    const id = graphId();
    const received = new Date(Math.floor((options.receivedDateTime ?? new Date()).getTime() / 1000) * 1000);
    const message: FakeGraphMessage = {
      id,
      folderId: this.folderId(options.folder ?? 'inbox'),
      raw: Buffer.isBuffer(raw) ? raw : Buffer.from(raw),
      receivedDateTime: received,
      isRead: options.isRead ?? false,
      isDraft: options.isDraft ?? false,
      flagStatus: options.flagged ? 'flagged' : 'notFlagged',
      categories: options.categories ?? [],
    };
    this.messages.set(id, message);
    this.change(message.folderId, id);
    return id;
  }

  updateMessage(id: string, changes: { isRead?: boolean; flagStatus?: FakeGraphMessage['flagStatus']; categories?: string[] }): void {
    const message = this.messages.get(id);
    if (!message) throw new Error(`no message ${id}`);
    if (changes.isRead !== undefined) message.isRead = changes.isRead;
    if (changes.flagStatus !== undefined) message.flagStatus = changes.flagStatus;
    if (changes.categories !== undefined) message.categories = changes.categories;
    this.change(message.folderId, id);
  }

  /** A move (by the member elsewhere, or through the API); answers the message's id after it. */
  moveMessage(id: string, destination: string, keepId = this.idMode === 'immutable'): string {
    const message = this.messages.get(id);
    if (!message) throw new Error(`no message ${id}`);
    const target = this.folderId(destination);
    const from = message.folderId;
    message.folderId = target;
    if (!keepId) {
      this.messages.delete(id);
      message.id = graphId();
      this.messages.set(message.id, message);
      this.change(from, id);
    } else {
      this.change(from, id);
    }
    this.change(target, message.id);
    return message.id;
  }

  deleteMessage(id: string): void {
    const message = this.messages.get(id);
    if (!message) throw new Error(`no message ${id}`);
    this.messages.delete(id);
    this.change(message.folderId, id);
  }

  private change(folderId: string, messageId: string): void {
    this.seq += 1;
    this.changes.push({ seq: this.seq, folderId, messageId });
  }

  private folder(idOrName: string): Folder | undefined {
    return this.folders.get(idOrName) ?? [...this.folders.values()].find((folder) => folder.wellKnown === idOrName.toLowerCase());
  }

  protected handle(request: FakeRequest): FakeAnswer | Promise<FakeAnswer> {
    const token = bearerOf(request);
    const authorised = token !== null && this.validTokens.has(token);
    if (!authorised) return this.answer(request, false);
    if (!this.concurrency.enter()) {
      return { status: 429, headers: { 'retry-after': '1' }, json: graphError('ApplicationThrottled', 'Application is over its MailboxConcurrency limit.') };
    }
    if (this.concurrency.delayMs === 0) {
      try {
        return this.answer(request, true);
      } finally {
        this.concurrency.leave();
      }
    }
    return sleep(this.concurrency.delayMs)
      .then(() => this.answer(request, true))
      .finally(() => this.concurrency.leave());
  }

  private answer(request: FakeRequest, authorised: boolean): FakeAnswer {
    if (authorised && !this.quota.admit(1)) {
      return { status: 429, headers: { 'retry-after': String(this.quota.windowSeconds) }, json: graphError('ApplicationThrottled', 'The mailbox is over its request limit.') };
    }
    if (!authorised) {
      return {
        status: 401,
        headers: { 'www-authenticate': 'Bearer realm="", authorization_uri="https://login.microsoftonline.com/common/oauth2/authorize"' },
        json: graphError('InvalidAuthenticationToken', 'Access token has expired or is not yet valid.'),
      };
    }
    const prefix = '/v1.0/me/';
    if (!request.path.startsWith(prefix)) return fail(400, 'BadRequest', 'Resource not found for the segment.');
    // Graph writes links as mailFolders('id'); requests may use mailFolders/id.
    const rest = request.path.slice(prefix.length).replace(/^(mailFolders|messages)\('([^']*)'\)/i, (_all, kind: string, id: string) => `${kind}/${encodeURIComponent(decodeURIComponent(id))}`);
    const parts = rest.split('/').map(decodeURIComponent);
    const kind = parts[0].toLowerCase();
    if (kind === 'sendmail' && parts.length === 1) return this.sendMail(request);
    if (kind === 'mailfolders') return this.folderRoute(request, parts.slice(1));
    if (kind === 'messages') return this.messageRoute(request, parts.slice(1));
    return fail(400, 'BadRequest', 'Resource not found for the segment.');
  }

  private sendMail(request: FakeRequest): FakeAnswer {
    if (request.method !== 'POST') return fail(405, 'ErrorInvalidRequest', 'The OData request is not supported.');
    if (!String(request.headers['content-type'] ?? '').toLowerCase().startsWith('text/plain')) {
      return fail(400, 'ErrorInvalidRequest', 'This fake only takes MIME content (text/plain, base64).');
    }
    const text = request.text.replace(/\s+/g, '');
    if (text === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) return fail(400, 'ErrorMimeContentInvalidBase64String', 'Invalid base64 string for MIME content.');
    const raw = Buffer.from(text, 'base64');
    const end = raw.indexOf('\r\n\r\n');
    const head = raw.subarray(0, end < 0 ? raw.length : end).toString('utf8').replace(/\r\n[ \t]+/g, ' ');
    const recipients = ['to', 'cc', 'bcc'].flatMap((name) => addressesOf(new RegExp(`^${name}:(.*)$`, 'im').exec(head)?.[1] ?? ''));
    if (recipients.length === 0) return fail(400, 'ErrorInvalidRecipients', 'At least one recipient is not valid.');
    const id = this.addMessage(raw, { folder: 'sentitems', isRead: true });
    this.sent.push({ id, raw, delivered: withoutBcc(raw), recipients });
    return { status: 202 };
  }

  private folderJson(folder: Folder) {
    const children = [...this.folders.values()].filter((item) => item.parentFolderId === folder.id).length;
    const inside = [...this.messages.values()].filter((message) => message.folderId === folder.id);
    return {
      id: folder.id,
      displayName: folder.displayName,
      parentFolderId: folder.parentFolderId,
      childFolderCount: children,
      unreadItemCount: inside.filter((message) => !message.isRead).length,
      totalItemCount: inside.length,
      isHidden: false,
    };
  }

  private page<T>(request: FakeRequest, items: T[], path: string): FakeAnswer {
    const top = Math.min(1000, Math.max(1, Number(request.query.get('$top') ?? 10) || 10));
    const skip = Math.max(0, Number(request.query.get('$skip') ?? 0) || 0);
    const json: Record<string, unknown> = { '@odata.context': `${this.baseUrl}/$metadata#Collection`, value: items.slice(skip, skip + top) };
    if (request.query.get('$count') === 'true') json['@odata.count'] = items.length;
    if (skip + top < items.length) {
      const next = new URLSearchParams(request.query);
      next.set('$skip', String(skip + top));
      next.delete('$count');
      json['@odata.nextLink'] = `${this.http.origin}${path}?${next.toString()}`;
    }
    return { status: 200, json };
  }

  private folderRoute(request: FakeRequest, parts: string[]): FakeAnswer {
    if (request.method !== 'GET') return fail(405, 'ErrorInvalidRequest', 'The OData request is not supported.');
    if (parts.length === 0) {
      const top = [...this.folders.values()].filter((folder) => folder.parentFolderId === this.rootId).map((folder) => this.folderJson(folder));
      return this.page(request, top, '/v1.0/me/mailFolders');
    }
    const folder = this.folder(parts[0]);
    if (!folder) return notFound();
    if (parts.length === 1) return { status: 200, json: this.folderJson(folder) };
    if (parts[1].toLowerCase() === 'childfolders' && parts.length === 2) {
      const children = [...this.folders.values()].filter((item) => item.parentFolderId === folder.id).map((item) => this.folderJson(item));
      return this.page(request, children, `/v1.0/me/mailFolders/${folder.id}/childFolders`);
    }
    if (parts[1].toLowerCase() === 'messages' && parts.length === 2) return this.listMessages(request, folder);
    if (parts[1].toLowerCase() === 'messages' && parts[2]?.toLowerCase() === 'delta' && parts.length === 3) return this.delta(request, folder);
    return fail(400, 'BadRequest', 'Resource not found for the segment.');
  }

  private messageJson(message: FakeGraphMessage, select: string | null): Record<string, unknown> {
    const text = message.raw.toString('utf8');
    const head = text.slice(0, Math.max(0, text.indexOf('\r\n\r\n')));
    const headers = head
      .replace(/\r\n[ \t]+/g, ' ')
      .split('\r\n')
      .filter((line) => line.includes(':'))
      .map((line) => ({ name: line.slice(0, line.indexOf(':')), value: line.slice(line.indexOf(':') + 1).trim() }));
    const subject = headers.find((header) => header.name.toLowerCase() === 'subject')?.value ?? '';
    const all: Record<string, unknown> = {
      id: message.id,
      receivedDateTime: odataDate(message.receivedDateTime),
      subject,
      isRead: message.isRead,
      isDraft: message.isDraft,
      flag: { flagStatus: message.flagStatus },
      categories: message.categories,
      parentFolderId: message.folderId,
      internetMessageId: headers.find((header) => header.name.toLowerCase() === 'message-id')?.value ?? null,
      internetMessageHeaders: headers,
    };
    const fields = select ? select.split(',').map((field) => field.trim()) : Object.keys(all).filter((key) => key !== 'internetMessageHeaders');
    const json: Record<string, unknown> = { '@odata.etag': `W/"${randomBytes(6).toString('base64')}"`, id: message.id };
    for (const field of fields) if (Object.hasOwn(all, field)) json[field] = all[field];
    return json;
  }

  private listMessages(request: FakeRequest, folder: Folder): FakeAnswer {
    const test = parseFilter(request.query.get('$filter'));
    if (!test) return fail(400, 'ErrorInvalidUrlQueryFilter', 'The query filter contains one or more invalid nodes.');
    const orderBy = request.query.get('$orderby');
    if (orderBy !== null && !/^receivedDateTime( desc)?$/i.test(orderBy)) return fail(400, 'ErrorInvalidProperty', 'The $orderby is not supported.');
    const items = [...this.messages.values()]
      .filter((message) => message.folderId === folder.id && test(message))
      .sort((a, b) => b.receivedDateTime.getTime() - a.receivedDateTime.getTime() || (a.id < b.id ? -1 : 1))
      .map((message) => this.messageJson(message, request.query.get('$select')));
    return this.page(request, items, `/v1.0/me/mailFolders('${folder.id}')/messages`);
  }

  private delta(request: FakeRequest, folder: Folder): FakeAnswer {
    const skip = readToken<{ r: string; o: number }>(request.query.get('$skiptoken'));
    const base = readToken<{ s: number; f: string | null; sel: string | null; o?: string | null }>(request.query.get('$deltatoken'));
    const expired = () => fail(410, 'SyncStateNotFound', 'The sync state generation is not found. The delta token is expired and data must be synchronized again.');
    let roundId: string;
    let offset = 0;
    if (request.query.has('$skiptoken')) {
      if (!skip || !this.rounds.has(skip.r)) return expired();
      roundId = skip.r;
      offset = skip.o;
    } else {
      if (request.query.has('$deltatoken') && (!base || base.s < this.expiredBefore)) return expired();
      const filter = base ? base.f : request.query.get('$filter');
      const select = base ? base.sel : request.query.get('$select');
      // As Graph: the delta function takes `receivedDateTime desc` as its only order; without it the
      // order is not guaranteed (here: the order messages came in).
      const orderBy = base ? (base.o ?? null) : request.query.get('$orderby');
      if (orderBy !== null && !/^receivedDateTime desc$/i.test(orderBy.trim())) return fail(400, 'ErrorInvalidUrlQuery', 'The only supported $orderby expression is receivedDateTime desc.');
      const test = parseFilter(filter);
      if (!test) return fail(400, 'ErrorInvalidUrlQueryFilter', 'The query filter contains one or more invalid nodes.');
      let entries: Record<string, unknown>[];
      if (!base) {
        const listed = [...this.messages.values()].filter((message) => message.folderId === folder.id && test(message));
        if (orderBy !== null) listed.sort((a, b) => b.receivedDateTime.getTime() - a.receivedDateTime.getTime() || (a.id < b.id ? -1 : 1));
        entries = listed.map((message) => this.messageJson(message, select));
      } else {
        const ids = [...new Set(this.changes.filter((change) => change.seq > base.s && change.folderId === folder.id).map((change) => change.messageId))];
        entries = ids.map((id) => {
          const message = this.messages.get(id);
          return message && message.folderId === folder.id && test(message)
            ? this.messageJson(message, select)
            : { '@odata.type': '#microsoft.graph.message', id, '@removed': { reason: 'deleted' } };
        });
      }
      roundId = randomBytes(8).toString('hex');
      this.rounds.set(roundId, { entries, folderId: folder.id, endSeq: this.seq, filter, select, orderBy });
    }
    const round = this.rounds.get(roundId)!;
    const size = maxPageSize(request);
    const value = round.entries.slice(offset, offset + size);
    const link = `${this.http.origin}/v1.0/me/mailFolders('${round.folderId}')/messages/delta`;
    const json: Record<string, unknown> = { '@odata.context': `${this.baseUrl}/$metadata#Collection(message)`, value };
    if (offset + size < round.entries.length) json['@odata.nextLink'] = `${link}?$skiptoken=${token({ r: roundId, o: offset + size })}`;
    else json['@odata.deltaLink'] = `${link}?$deltatoken=${token({ s: round.endSeq, f: round.filter, sel: round.select, o: round.orderBy })}`;
    return { status: 200, headers: { 'preference-applied': `odata.maxpagesize=${size}` }, json };
  }

  private messageRoute(request: FakeRequest, parts: string[]): FakeAnswer {
    const message = parts[0] ? this.messages.get(parts[0]) : undefined;
    if (!message) return notFound();
    const action = parts[1]?.toLowerCase();
    if (request.method === 'GET' && parts.length === 1) return { status: 200, json: this.messageJson(message, request.query.get('$select')) };
    if (request.method === 'GET' && action === '$value') return { status: 200, headers: { 'content-type': 'text/plain' }, body: message.raw };
    if (request.method === 'PATCH' && parts.length === 1) {
      const body = jsonBody(request) ?? {};
      const flag = body.flag as { flagStatus?: unknown } | undefined;
      if (flag !== undefined && !['notFlagged', 'flagged', 'complete'].includes(String(flag?.flagStatus))) return fail(400, 'ErrorInvalidRequest', 'Invalid flag.');
      if (body.categories !== undefined && !(Array.isArray(body.categories) && body.categories.every((item) => typeof item === 'string'))) return fail(400, 'ErrorInvalidRequest', 'Invalid categories.');
      this.updateMessage(message.id, {
        isRead: typeof body.isRead === 'boolean' ? body.isRead : undefined,
        flagStatus: flag ? (flag.flagStatus as FakeGraphMessage['flagStatus']) : undefined,
        categories: body.categories as string[] | undefined,
      });
      return { status: 200, json: this.messageJson(message, null) };
    }
    if (request.method === 'POST' && action === 'move') {
      const destination = jsonBody(request)?.destinationId;
      if (typeof destination !== 'string' || !this.folder(destination)) return fail(400, 'ErrorInvalidIdMalformed', 'Id is malformed.');
      const keep = this.idMode === 'immutable' && /IdType="ImmutableId"/i.test(String(request.headers.prefer ?? ''));
      const id = this.moveMessage(message.id, destination, keep);
      return { status: 201, json: this.messageJson(this.messages.get(id)!, null) };
    }
    if (request.method === 'DELETE' && parts.length === 1) {
      this.deleteMessage(message.id);
      return { status: 204 };
    }
    return fail(400, 'BadRequest', 'Resource not found for the segment.');
  }
}

export async function startFakeGraph(options: { idMode?: 'immutable' | 'mutable' } = {}): Promise<FakeGraphServer> {
  return new FakeGraphServer(options).start();
}
