/**
 * A fake Gmail API (REST v1, `/gmail/v1/users/me/...`) for the `mail_provider_a` adapter's tests:
 * the real request and response shapes (field names, `nextPageToken`, `historyId` as strings,
 * `internalDate` in milliseconds as a string, base64url `raw`, the error body
 * `{error: {code, message, errors: [{message, domain, reason}], status}}`), Bearer tokens checked
 * (401 otherwise), an in-memory mailbox the test changes (`addMessage`, `changeLabels`, `deleteMessage`)
 * with a history log (`history.list` answers 404 for an id older than `expireHistory()` left), and
 * injected failures (`failNext`: 429 with Retry-After, 403 rateLimitExceeded, ...).
 *
 * Supported: profile; labels list/create; messages list (labelIds, includeSpamTrash, maxResults,
 * pageToken, and `q` terms `after:`/`before:` in epoch seconds or yyyy/mm/dd, `newer_than:Nd`,
 * `in:`/`-in:`, `label:`), get (raw, minimal, metadata), modify, trash, untrash, delete; history list
 * (startHistoryId, historyTypes, labelId, maxResults, pageToken); messages.send (`{raw, threadId?}`: recorded
 * in `sent` with the recipients read from To/Cc/Bcc, the delivered copy without its Bcc header, and
 * filed under SENT so the sync mirrors it; 400 without a recipient or with unreadable raw).
 */
import { randomBytes } from 'node:crypto';
import { bearerOf, FakeApiServer, jsonBody, QuotaWindow, type FakeAnswer, type FakeRequest } from './fake-http';

export interface FakeGmailMessage {
  id: string;
  threadId: string;
  labelIds: Set<string>;
  raw: Buffer;
  internalDate: number;
  historyId: bigint;
}

interface HistoryRecord {
  id: bigint;
  type: 'messageAdded' | 'messageDeleted' | 'labelAdded' | 'labelRemoved';
  message: { id: string; threadId: string; labelIds: string[] };
  labelIds?: string[];
}

interface Label {
  id: string;
  name: string;
  type: 'system' | 'user';
  color?: { textColor: string; backgroundColor: string };
}

const systemLabels = ['INBOX', 'SENT', 'DRAFT', 'SPAM', 'TRASH', 'STARRED', 'IMPORTANT', 'UNREAD', 'CHAT', 'CATEGORY_PERSONAL', 'CATEGORY_SOCIAL', 'CATEGORY_PROMOTIONS', 'CATEGORY_UPDATES', 'CATEGORY_FORUMS'];
const folderNames: Record<string, string> = { inbox: 'INBOX', spam: 'SPAM', trash: 'TRASH', drafts: 'DRAFT', draft: 'DRAFT', sent: 'SENT', starred: 'STARRED', important: 'IMPORTANT', unread: 'UNREAD' };
const statusText: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 409: 'ALREADY_EXISTS', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE' };

export function gmailError(code: number, message: string, reason: string, domain = 'global'): { error: unknown } {
  return { error: { code, message, errors: [{ message, domain, reason }], status: statusText[code] ?? 'UNKNOWN' } };
}

function fail(code: number, message: string, reason: string, domain?: string): FakeAnswer {
  return { status: code, json: gmailError(code, message, reason, domain) };
}

const notFound = () => fail(404, 'Requested entity was not found.', 'notFound');

/** Units of a call, from Google's per-method table (developers.google.com/gmail/api/reference/quota). */
function quotaUnits(method: string, path: string): number {
  if (/\/users\/me\/profile$/.test(path)) return 1;
  if (/\/users\/me\/labels(\/[^/]+)?$/.test(path)) return method === 'GET' ? 1 : 5;
  if (/\/users\/me\/history$/.test(path)) return 2;
  if (/\/users\/me\/messages\/send$/.test(path)) return 100;
  if (/\/users\/me\/messages\/batch(Modify|Delete)$/.test(path)) return 50;
  if (/\/users\/me\/messages\/[^/]+$/.test(path)) return method === 'DELETE' ? 10 : 5;
  return 5;
}

function pageToken(offset: number, key: string): string {
  return Buffer.from(JSON.stringify({ o: offset, k: key })).toString('base64url');
}

function readPageToken(token: string | null, key: string): number | null {
  if (token === null) return 0;
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { o?: unknown; k?: unknown };
    return typeof parsed.o === 'number' && parsed.k === key ? parsed.o : null;
  } catch {
    return null;
  }
}

/** A message accepted by `messages.send`. */
export interface FakeSentMessage {
  id: string;
  threadId: string;
  /** As given (with Bcc). */
  raw: Buffer;
  /** What recipients receive: the Bcc header removed. */
  delivered: Buffer;
  recipients: string[];
}

export class FakeGmailServer extends FakeApiServer {
  readonly sent: FakeSentMessage[] = [];
  readonly validTokens = new Set<string>(['gmail-token']);
  readonly messages = new Map<string, FakeGmailMessage>();
  readonly labels = new Map<string, Label>(systemLabels.map((id) => [id, { id, name: id, type: 'system' as const }]));
  readonly address: string;
  private history: HistoryRecord[] = [];
  private historyId = 1000n + BigInt(randomBytes(2).readUInt16BE());
  /** history.list answers 404 for a startHistoryId below this. */
  private oldestHistoryId = 0n;
  private labelCounter = 0;
  /**
   * Gmail's per-user quota: 6,000 units a minute (what Google grants a new project), spent per method as
   * Google's table prices it. Written out here rather than imported: this is the provider's side.
   */
  readonly quota = new QuotaWindow(6000, 60);

  constructor(options: { address?: string } = {}) {
    super((failure) => {
      const rateLimited = failure.status === 429 || failure.status === 403;
      return gmailError(
        failure.status,
        rateLimited ? 'Rate Limit Exceeded' : 'Backend Error',
        failure.reason ?? (failure.status === 429 ? 'rateLimitExceeded' : 'backendError'),
        rateLimited ? 'usageLimits' : 'global',
      );
    });
    this.address = options.address ?? 'me@example.test';
  }

  /** The API root to configure (`MAIL_PROVIDER_A_API_URL`). */
  get baseUrl(): string {
    return `${this.http.origin}/gmail/v1`;
  }

  /** Every history id issued so far becomes invalid (history.list → 404), as after a week offline. */
  expireHistory(): void {
    this.bump();
    this.oldestHistoryId = this.historyId;
    this.history = [];
  }

  createLabel(name: string, color?: string): string {
    this.labelCounter += 1;
    const id = `Label_${this.labelCounter}`;
    this.labels.set(id, { id, name, type: 'user', ...(color ? { color: { textColor: '#000000', backgroundColor: color } } : {}) });
    return id;
  }

  /** Delivers a message (labels default to INBOX + UNREAD); answers its id. */
  addMessage(raw: Buffer | string, options: { labelIds?: string[]; internalDate?: Date; threadId?: string } = {}): string {
    const id = randomBytes(8).toString('hex');
    const labelIds = new Set(options.labelIds ?? ['INBOX', 'UNREAD']);
    const message: FakeGmailMessage = {
      id,
      threadId: options.threadId ?? id,
      labelIds,
      raw: Buffer.isBuffer(raw) ? raw : Buffer.from(raw),
      internalDate: (options.internalDate ?? new Date()).getTime(),
      historyId: 0n,
    };
    this.messages.set(id, message);
    this.record('messageAdded', message);
    return id;
  }

  /** Label changes as the member makes them in Gmail (each one a history record). */
  changeLabels(id: string, add: string[], remove: string[]): void {
    const message = this.messages.get(id);
    if (!message) throw new Error(`no message ${id}`);
    const added = add.filter((label) => !message.labelIds.has(label));
    const removed = remove.filter((label) => message.labelIds.has(label));
    for (const label of added) message.labelIds.add(label);
    for (const label of removed) message.labelIds.delete(label);
    if (added.length > 0) this.record('labelAdded', message, added);
    if (removed.length > 0) this.record('labelRemoved', message, removed);
  }

  deleteMessage(id: string): void {
    const message = this.messages.get(id);
    if (!message) throw new Error(`no message ${id}`);
    this.messages.delete(id);
    this.record('messageDeleted', message);
  }

  private bump(): bigint {
    this.historyId += BigInt(1 + (randomBytes(1)[0] % 5));
    return this.historyId;
  }

  private record(type: HistoryRecord['type'], message: FakeGmailMessage, labelIds?: string[]): void {
    const id = this.bump();
    message.historyId = id;
    this.history.push({ id, type, message: { id: message.id, threadId: message.threadId, labelIds: [...message.labelIds] }, labelIds });
  }

  protected handle(request: FakeRequest): FakeAnswer | Promise<FakeAnswer> {
    const token = bearerOf(request);
    if (token !== null && this.validTokens.has(token) && !this.quota.admit(quotaUnits(request.method, request.path))) {
      return fail(429, 'Quota exceeded for quota metric \'Queries\' and limit \'Queries per minute per user\'.', 'userRateLimitExceeded', 'usageLimits');
    }
    if (token === null || !this.validTokens.has(token)) {
      return {
        status: 401,
        headers: { 'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
        json: {
          error: {
            code: 401,
            message: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
            errors: [{ message: 'Invalid Credentials', domain: 'global', reason: 'authError', location: 'Authorization', locationType: 'header' }],
            status: 'UNAUTHENTICATED',
          },
        },
      };
    }
    const prefix = '/gmail/v1/users/me';
    if (!request.path.startsWith(`${prefix}/`)) return notFound();
    const parts = request.path.slice(prefix.length + 1).split('/').map(decodeURIComponent);
    const route = `${request.method} ${parts[0]}${parts.length > 1 ? '/:id' : ''}${parts.length > 2 ? `/${parts[2]}` : ''}`;
    if (parts.length > 4 || (parts.length === 4 && parts[2] !== 'attachments')) return notFound();
    if (request.method === 'POST' && parts.length === 2 && parts[0] === 'messages' && parts[1] === 'send') return this.send(request);
    switch (route) {
      case 'GET profile':
        return { status: 200, json: { emailAddress: this.address, messagesTotal: this.messages.size, threadsTotal: this.messages.size, historyId: String(this.historyId) } };
      case 'GET labels':
        return { status: 200, json: { labels: [...this.labels.values()].map((label) => this.labelJson(label)) } };
      case 'POST labels':
        return this.createLabelRoute(request);
      case 'GET messages':
        return this.list(request);
      case 'GET messages/:id':
        return this.get(parts[1], request.query.get('format') ?? 'full');
      case 'GET messages/:id/attachments':
        return this.attachment(parts[1], parts[3]);
      case 'POST messages/:id/modify':
        return this.modify(parts[1], request);
      case 'POST messages/:id/trash':
        return this.move(parts[1], ['TRASH'], ['INBOX', 'SPAM']);
      case 'POST messages/:id/untrash':
        return this.move(parts[1], [], ['TRASH']);
      case 'DELETE messages/:id': {
        if (!this.messages.has(parts[1])) return notFound();
        this.deleteMessage(parts[1]);
        return { status: 204 };
      }
      case 'GET history':
        return this.historyList(request);
      default:
        return notFound();
    }
  }

  private send(request: FakeRequest): FakeAnswer {
    const body = jsonBody(request);
    const rawText = typeof body?.raw === 'string' ? body.raw : '';
    if (rawText === '' || !/^[A-Za-z0-9_-]+={0,2}$/.test(rawText)) return fail(400, "Invalid value for ByteString: raw", 'invalidArgument');
    const raw = Buffer.from(rawText, 'base64url');
    const { headers } = splitHead(raw);
    const recipients = ['to', 'cc', 'bcc'].flatMap((name) => addressesOf(headerValue(headers, name)));
    if (recipients.length === 0) return fail(400, 'Recipient address required', 'invalidArgument');
    const threadId = typeof body?.threadId === 'string' && [...this.messages.values()].some((message) => message.threadId === body.threadId) ? body.threadId : undefined;
    const id = this.addMessage(raw, { labelIds: ['SENT'], threadId });
    const stored = this.messages.get(id)!;
    this.sent.push({ id, threadId: stored.threadId, raw, delivered: withoutBcc(raw), recipients });
    return { status: 200, json: { id, threadId: stored.threadId, labelIds: ['SENT'] } };
  }

  private labelJson(label: Label) {
    return label.type === 'system'
      ? { id: label.id, name: label.name, type: 'system', messageListVisibility: 'hide', labelListVisibility: 'labelShow' }
      : { id: label.id, name: label.name, type: 'user', messageListVisibility: 'show', labelListVisibility: 'labelShow', ...(label.color ? { color: label.color } : {}) };
  }

  private createLabelRoute(request: FakeRequest): FakeAnswer {
    const body = jsonBody(request);
    const name = typeof body?.name === 'string' ? body.name.trim() : '';
    if (name === '') return fail(400, 'Invalid label name', 'invalidArgument');
    if ([...this.labels.values()].some((label) => label.name.toLowerCase() === name.toLowerCase())) return fail(409, 'Label name exists or conflicts', 'duplicate');
    const id = this.createLabel(name);
    return { status: 200, json: this.labelJson(this.labels.get(id)!) };
  }

  private matches(message: FakeGmailMessage, query: URLSearchParams): boolean | null {
    const labelIds = query.getAll('labelIds');
    if (labelIds.some((label) => !message.labelIds.has(label))) return false;
    let mentionsSpamTrash = labelIds.includes('SPAM') || labelIds.includes('TRASH');
    for (const term of (query.get('q') ?? '').split(/\s+/).filter(Boolean)) {
      const negated = term.startsWith('-');
      const [operator, value = ''] = (negated ? term.slice(1) : term).split(':', 2);
      let hit: boolean;
      if (operator === 'after' || operator === 'before') {
        const bound = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value.replaceAll('/', '-'));
        if (!Number.isFinite(bound)) return null;
        hit = operator === 'after' ? message.internalDate >= bound : message.internalDate < bound;
      } else if (operator === 'newer_than' || operator === 'older_than') {
        const match = /^(\d+)([dmy])$/.exec(value);
        if (!match) return null;
        const days = Number(match[1]) * (match[2] === 'd' ? 1 : match[2] === 'm' ? 30 : 365);
        const bound = Date.now() - days * 86_400_000;
        hit = operator === 'newer_than' ? message.internalDate >= bound : message.internalDate < bound;
      } else if (operator === 'in' || operator === 'label' || operator === 'is') {
        if (value === 'anywhere') {
          mentionsSpamTrash = true;
          hit = true;
        } else {
          const label = (Object.hasOwn(folderNames, value.toLowerCase()) ? folderNames[value.toLowerCase()] : undefined) ?? [...this.labels.values()].find((item) => item.name.toLowerCase() === value.toLowerCase())?.id ?? value;
          if (!negated && (label === 'SPAM' || label === 'TRASH')) mentionsSpamTrash = true;
          hit = message.labelIds.has(label);
        }
      } else {
        return null;
      }
      if (hit === negated) return false;
    }
    if (!mentionsSpamTrash && query.get('includeSpamTrash') !== 'true' && (message.labelIds.has('SPAM') || message.labelIds.has('TRASH'))) return false;
    return true;
  }

  private list(request: FakeRequest): FakeAnswer {
    const maxResults = Math.min(500, Math.max(1, Number(request.query.get('maxResults') ?? 100) || 100));
    const key = `${request.query.getAll('labelIds').join(',')}|${request.query.get('q') ?? ''}|${request.query.get('includeSpamTrash') ?? ''}`;
    const offset = readPageToken(request.query.get('pageToken'), key);
    if (offset === null) return fail(400, 'Invalid pageToken', 'invalidArgument');
    const all: FakeGmailMessage[] = [];
    for (const message of this.messages.values()) {
      const hit = this.matches(message, request.query);
      if (hit === null) return fail(400, 'Invalid query', 'invalidArgument');
      if (hit) all.push(message);
    }
    all.sort((a, b) => b.internalDate - a.internalDate || (a.id < b.id ? 1 : -1));
    const page = all.slice(offset, offset + maxResults);
    const json: Record<string, unknown> = { resultSizeEstimate: all.length };
    if (page.length > 0) json.messages = page.map((message) => ({ id: message.id, threadId: message.threadId }));
    if (offset + maxResults < all.length) json.nextPageToken = pageToken(offset + maxResults, key);
    return { status: 200, json };
  }

  private messageJson(message: FakeGmailMessage) {
    const text = message.raw.toString('utf8');
    const bodyStart = text.indexOf('\r\n\r\n');
    return {
      id: message.id,
      threadId: message.threadId,
      labelIds: [...message.labelIds],
      snippet: text.slice(bodyStart + 4, bodyStart + 104).replace(/\s+/g, ' ').trim(),
      sizeEstimate: message.raw.length,
      historyId: String(message.historyId),
      internalDate: String(message.internalDate),
    };
  }

  private get(id: string, format: string): FakeAnswer {
    const message = this.messages.get(id);
    if (!message) return notFound();
    const base = this.messageJson(message);
    if (format === 'raw') return { status: 200, json: { ...base, raw: message.raw.toString('base64url') } };
    if (format === 'minimal') return { status: 200, json: base };
    if (format === 'metadata') {
      const text = message.raw.toString('utf8');
      const head = text.slice(0, Math.max(0, text.indexOf('\r\n\r\n')));
      const headers = head
        .replace(/\r\n[ \t]+/g, ' ')
        .split('\r\n')
        .map((line) => ({ name: line.slice(0, line.indexOf(':')), value: line.slice(line.indexOf(':') + 1).trim() }))
        .filter((header) => header.name.length > 0);
      return { status: 200, json: { ...base, payload: { partId: '', mimeType: 'message/rfc822', filename: '', headers } } };
    }
    if (format === 'full') return { status: 200, json: { ...base, payload: mimeTree(message.raw, '', `${message.id}`) } };
    return fail(400, 'Invalid format', 'invalidArgument');
  }

  private attachment(id: string, attachmentId: string | undefined): FakeAnswer {
    const message = this.messages.get(id);
    if (!message || !attachmentId) return notFound();
    const content = attachmentContent(mimeTree(message.raw, '', message.id), attachmentId);
    if (!content) return fail(400, 'Invalid attachment token', 'invalidArgument');
    return { status: 200, json: { size: content.length, data: content.toString('base64url') } };
  }

  private modify(id: string, request: FakeRequest): FakeAnswer {
    const body = jsonBody(request) ?? {};
    const add = Array.isArray(body.addLabelIds) ? body.addLabelIds.filter((item): item is string => typeof item === 'string') : [];
    const remove = Array.isArray(body.removeLabelIds) ? body.removeLabelIds.filter((item): item is string => typeof item === 'string') : [];
    for (const label of [...add, ...remove]) if (!this.labels.has(label)) return fail(400, `Invalid label: ${label}`, 'invalidArgument');
    if (add.includes('SENT') || add.includes('DRAFT')) return fail(400, `Invalid label: ${add.includes('SENT') ? 'SENT' : 'DRAFT'}`, 'invalidArgument');
    return this.move(id, add, remove);
  }

  private move(id: string, add: string[], remove: string[]): FakeAnswer {
    if (!this.messages.has(id)) return notFound();
    this.changeLabels(id, add, remove);
    const message = this.messages.get(id)!;
    return { status: 200, json: { id: message.id, threadId: message.threadId, labelIds: [...message.labelIds] } };
  }

  private historyList(request: FakeRequest): FakeAnswer {
    const startText = request.query.get('startHistoryId') ?? '';
    if (!/^\d+$/.test(startText)) return fail(400, 'Invalid startHistoryId', 'invalidArgument');
    const start = BigInt(startText);
    if (start < this.oldestHistoryId) return notFound();
    const types = request.query.getAll('historyTypes');
    const labelId = request.query.get('labelId');
    const maxResults = Math.min(500, Math.max(1, Number(request.query.get('maxResults') ?? 100) || 100));
    const key = `${startText}|${types.join(',')}|${labelId ?? ''}`;
    const offset = readPageToken(request.query.get('pageToken'), key);
    if (offset === null) return fail(400, 'Invalid pageToken', 'invalidArgument');
    const records = this.history.filter(
      (record) => record.id > start && (types.length === 0 || types.includes(record.type)) && (!labelId || record.message.labelIds.includes(labelId)),
    );
    const page = records.slice(offset, offset + maxResults);
    const json: Record<string, unknown> = { historyId: String(this.historyId) };
    if (page.length > 0) {
      json.history = page.map((record) => {
        const ref = { id: record.message.id, threadId: record.message.threadId };
        const entry: Record<string, unknown> = { id: String(record.id), messages: [ref] };
        if (record.type === 'messageAdded') entry.messagesAdded = [{ message: record.message }];
        if (record.type === 'messageDeleted') entry.messagesDeleted = [{ message: record.message }];
        if (record.type === 'labelAdded') entry.labelsAdded = [{ message: record.message, labelIds: record.labelIds }];
        if (record.type === 'labelRemoved') entry.labelsRemoved = [{ message: record.message, labelIds: record.labelIds }];
        return entry;
      });
    }
    if (offset + maxResults < records.length) json.nextPageToken = pageToken(offset + maxResults, key);
    return { status: 200, json };
  }
}

interface TreePart {
  partId: string;
  mimeType: string;
  filename: string;
  headers: { name: string; value: string }[];
  body: { size: number; data?: string; attachmentId?: string };
  parts?: TreePart[];
  /** Decoded content (kept out of the JSON answer by `attachmentContent`'s walk only). */
  content?: Buffer;
}

function splitHead(raw: Buffer): { headers: { name: string; value: string }[]; body: Buffer } {
  const text = raw.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  const head = end < 0 ? text : text.slice(0, end);
  const headers = head
    .replace(/\r\n[ \t]+/g, ' ')
    .split('\r\n')
    .filter((line) => line.includes(':'))
    .map((line) => ({ name: line.slice(0, line.indexOf(':')), value: Buffer.from(line.slice(line.indexOf(':') + 1).trim(), 'latin1').toString('utf8') }));
  return { headers, body: end < 0 ? Buffer.alloc(0) : raw.subarray(end + 4) };
}

/** Addresses of an address header (`Name <a@b>, c@d`), lowercased. */
export function addressesOf(value: string): string[] {
  return [...value.matchAll(/[^\s<>,;"]+@[^\s<>,;"]+/g)].map((match) => match[0].toLowerCase());
}

/** The message with its Bcc header (and its folded lines) removed, as recipients receive it. */
export function withoutBcc(raw: Buffer): Buffer {
  const text = raw.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return raw;
  const head = text.slice(0, end).replace(/(^|\r\n)bcc:[^\r\n]*(\r\n[ \t][^\r\n]*)*/gi, '').replace(/^\r\n/, '');
  return Buffer.from(head + text.slice(end), 'latin1');
}

function headerValue(headers: { name: string; value: string }[], name: string): string {
  return headers.find((header) => header.name.toLowerCase() === name)?.value ?? '';
}

function decodeBody(body: Buffer, encoding: string): Buffer {
  const kind = encoding.trim().toLowerCase();
  if (kind === 'base64') return Buffer.from(body.toString('latin1').replace(/\s+/g, ''), 'base64');
  if (kind === 'quoted-printable') {
    const text = body.toString('latin1').replace(/=\r?\n/g, '');
    return Buffer.from(text.replace(/=([0-9A-Fa-f]{2})/g, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1');
  }
  return body;
}

/**
 * Gmail's `payload` of a message (format=full): the MIME tree with partIds numbered from 0, small
 * bodies inline as base64url `data`, named parts behind an `attachmentId`. Enough MIME for the
 * nodemailer-built messages of the tests.
 */
function mimeTree(raw: Buffer, partId: string, messageId: string): TreePart {
  const { headers, body } = splitHead(raw);
  const type = headerValue(headers, 'content-type') || 'text/plain';
  const mimeType = type.split(';')[0].trim().toLowerCase();
  const filename = /filename="?([^";]+)"?/i.exec(`${headerValue(headers, 'content-disposition')};${type}`)?.[1] ?? '';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (mimeType.startsWith('multipart/') && boundary) {
    const text = body.toString('latin1');
    const pieces = text.split(`--${boundary}`).slice(1);
    const parts: TreePart[] = [];
    for (const piece of pieces) {
      if (piece.startsWith('--')) break;
      const child = Buffer.from(piece.replace(/^\r\n/, '').replace(/\r\n$/, ''), 'latin1');
      parts.push(mimeTree(child, partId === '' ? String(parts.length) : `${partId}.${parts.length}`, messageId));
    }
    return { partId, mimeType, filename, headers, body: { size: 0 }, parts };
  }
  const content = decodeBody(body, headerValue(headers, 'content-transfer-encoding'));
  const tree: TreePart = { partId, mimeType, filename, headers, body: { size: content.length } };
  if (filename) tree.body.attachmentId = Buffer.from(`${messageId}:${partId}`).toString('base64url');
  else tree.body.data = content.toString('base64url');
  Object.defineProperty(tree, 'content', { value: content, enumerable: false });
  return tree;
}

function attachmentContent(tree: TreePart, attachmentId: string): Buffer | null {
  if (tree.body.attachmentId === attachmentId) return tree.content ?? null;
  for (const part of tree.parts ?? []) {
    const found = attachmentContent(part, attachmentId);
    if (found) return found;
  }
  return null;
}

export async function startFakeGmail(options: { address?: string } = {}): Promise<FakeGmailServer> {
  return new FakeGmailServer(options).start();
}
