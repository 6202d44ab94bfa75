/**
 * What an executor may do outside its own computation, handed to it as arguments (fakes in unit
 * tests). Every capability knows the run it serves: in a test run (`simulated`) the effectful ones
 * record what they would have done (`simulated: true`) and do nothing.
 */
import type { z } from 'zod';
import type { AiMessage, AiToolCall, AiToolDefinition, AiUsage } from '../../core/ai/types';

/** A table cell's value as the tables domain stores it (an empty cell is absent). */
export type CellValue = string | number | boolean | null;
/** Column key → value. Keys are chosen by people: read them as own properties only. */
export type Cells = Record<string, CellValue>;

/** A row as a table write answers it (the tables domain's `Row`; the engine reads `id` and `cells`). */
export interface TableRow {
  id: string;
  cells: Record<string, string | number | boolean>;
  [field: string]: unknown;
}

export interface WriteResult {
  row: TableRow;
  /** Upserts only: whether the row was created. */
  created?: boolean;
  /** True when this effect key had already been applied: `row`/`created` are the first answer. */
  replayed: boolean;
}

export interface EffectRecord {
  kind: string;
  description: string;
  simulated?: boolean;
}

/**
 * Runs `perform` at most once per `key` (stable across the step's attempts; the engine prefixes it
 * with the execution and node). A repeat after success answers the first result without calling
 * `perform`; a repeat after an attempt cut off while `perform` ran fails `step_effect_uncertain`.
 * In a test run `perform` is not called and `simulated` is answered instead: it checks what it can
 * without acting (the capabilities' `check` methods) and throws what `perform` would throw.
 */
export type KeyedEffect = <T>(
  spec: { key: string; kind: string; description: string },
  perform: () => Promise<T>,
  simulated: () => T | Promise<T>,
) => Promise<T>;

export interface MailMessageRef {
  id: string;
  mailboxId: string;
  threadId: string | null;
  subject: string | null;
  fromName: string | null;
  fromEmail: string | null;
  folderKey: string;
  receivedAt: string;
}

/** A message's state as an undo compares it: where it is and what the run may have changed on it. */
export interface MailMessageState {
  folderKey: string;
  seen: boolean;
  flagged: boolean;
  labels: string[];
}

/**
 * What a mail action recorded for its undo (issue 24 §4), kept in the effect's result: the message
 * before and after the operation as the mirror saw them when it was decided. Version 1; a record without
 * it (older runs, or a repeat that found the operation already made) cannot be undone.
 */
export interface MailUndoRecord {
  v: 1;
  messageId: string;
  mailboxId: string;
  /** To find the message again when another mail client moved it (IMAP gives it a new identity). */
  messageIdHeader: string | null;
  before: MailMessageState;
  after: MailMessageState;
}

export interface MailOperationOutcome {
  operationId: string;
  duplicate: boolean;
  /** Absent in a test run and on a repeat (`duplicate`): the state before is no longer known. */
  undo?: MailUndoRecord;
}

export interface MailCapability {
  /** A message of the member's mirror, or null (not theirs, or gone). */
  findMessage(messageId: string): Promise<MailMessageRef | null>;
  /** Queues a webmail operation on the real mailbox (effect-keyed through the operation's client token). */
  operate(input: {
    effectKey: string;
    messageId: string;
    action: 'markRead' | 'markUnread' | 'flag' | 'unflag' | 'archive' | 'trash' | 'move' | 'label';
    folder?: string;
    labels?: { add: string[]; remove: string[] };
  }): Promise<MailOperationOutcome>;
  /**
   * A test run's operation: the same reads and plan as `operate`, nothing done. Throws what
   * `operate` would (`mail.message_not_found`, `mail.mailbox_not_active`, `invalid_parameter`
   * naming the folder the mailbox does not have).
   */
  check(input: Omit<Parameters<MailCapability['operate']>[0], 'effectKey'>): Promise<void>;
  /**
   * The message's thread as context for an AI node: at most `limit` messages up to this one,
   * oldest first, each text clipped to `maxChars` (the mirrored text body, else the HTML body reduced to
   * text, else the snippet). [] when
   * the message is not the member's.
   */
  threadContext(input: { messageId: string; limit: number; maxChars: number }): Promise<ThreadContextMessage[]>;
  /**
   * Writes one entry of the mirror message's `classification` (merged under `key`); idempotent.
   * Nothing in a test run. False when the message is not the member's.
   */
  classify(input: { messageId: string; key: string; value: Record<string, unknown> }): Promise<boolean>;
  /**
   * The text of the message's PDF and plain-text attachments, for an AI node: the first
   * `bounds.attachments` of them in MIME order, each read within `bounds` (a PDF's size and pages, the
   * text's bytes); one that cannot be read carries a `note` instead of text, never a failure. Content
   * comes through the webmail's download path (the mirror's blob, or the provider on demand). The same
   * in a test run (a read). `null` when the message is not the member's.
   */
  attachmentTexts(input: { messageId: string; bounds: AttachmentTextBounds }): Promise<AttachmentTexts | null>;
  /**
   * The conversation of a message of the member's mirror, for mail.read_thread: the thread's latest
   * `limit` messages (oldest first; drafts left out; a message mirrored in several folders counted
   * once), each with its direction (outbound when it is from the mailbox's own address), the
   * participants, the last inbound message from a person and the last outbound one, and whether the
   * mailbox is awaiting a reply. A read: the same in a test run. `null` when the message is not the
   * member's.
   */
  thread(input: { messageId: string; limit: number }): Promise<ThreadRead | null>;
}

/** An address as a message's headers give it. */
export interface ThreadAddress {
  name: string | null;
  email: string;
}

/** One message of a thread as mail.read_thread answers it: the summary fields and its direction. */
export interface ThreadMessage {
  id: string;
  /** `outbound`: from the mailbox's own address; `inbound` otherwise. */
  direction: 'inbound' | 'outbound';
  from: { name: string | null; email: string | null };
  /** The first 10 recipients (To and Cc each). */
  to: ThreadAddress[];
  cc: ThreadAddress[];
  subject: string | null;
  snippet: string | null;
  receivedAt: string;
  /** Its folder's role (`inbox`, `sent`…), else the folder's key. */
  folder: string;
  hasAttachments: boolean;
  /** Mail no person wrote: an auto-reply, a delivery report, bulk mail or a no-reply sender (the ingest signals). */
  automatic: boolean;
  signals: { isAutoReply: boolean; isNoReply: boolean; isMailingList: boolean; isBulk: boolean; isDeliveryReport: boolean; isCalendar: boolean };
}

export interface ThreadRead {
  /** Null for a message the mirror put in no thread (then the thread is that message alone). */
  threadId: string | null;
  mailboxId: string;
  /** The mailbox's own address: what decides each message's direction. */
  mailboxAddress: string;
  /** The subject of the thread's first message read. */
  subject: string | null;
  /** Messages in the thread (drafts left out, copies counted once). */
  messageCount: number;
  /** The latest messages, oldest first. */
  messages: ThreadMessage[];
  /** True when older messages were left out of `messages`. */
  truncated: boolean;
  /** Everyone in From, To and Cc of the messages read, the mailbox's own address left out, in order of appearance (at most 50). */
  participants: ThreadAddress[];
  /** The last message from someone else that a person wrote (automatic mail left out), in the whole thread. */
  lastInbound: ThreadMessage | null;
  /** The mailbox's own last message in the whole thread. */
  lastOutbound: ThreadMessage | null;
  /** The mailbox wrote last: its last message has no later inbound message from a person. */
  awaitingReply: boolean;
}

export interface AttachmentTextBounds {
  /** Attachments read at most (PDF and plain text ones, in MIME order). */
  attachments: number;
  /** A PDF larger than this is not read. */
  pdfBytes: number;
  /** Pages of a PDF read from its start. */
  pdfPages: number;
  /** UTF-8 bytes of text kept per attachment. */
  textBytes: number;
}

export interface AttachmentText {
  filename: string;
  contentType: string;
  /** Null when it could not be read (`note` says why). */
  text: string | null;
  /** Whether text was left out (pages or bytes beyond the bounds). */
  truncated: boolean;
  /** Why there is no text ("protected by a password"…), or what was left out; null when read whole. */
  note: string | null;
}

export interface AttachmentTexts {
  read: AttachmentText[];
  /** Readable attachments beyond `bounds.attachments`, not read. */
  left: number;
}

export interface ThreadContextMessage {
  fromName: string | null;
  fromEmail: string | null;
  subject: string | null;
  receivedAt: string;
  text: string;
}

export interface TablesCapability {
  lookup(input: { tableId: string; key: string }): Promise<Record<string, unknown> | null>;
  write(input: {
    effectKey: string;
    op: 'insert' | 'update' | 'upsert';
    tableId: string;
    key?: string;
    rowId?: string;
    cells: Cells;
  }): Promise<WriteResult>;
  /**
   * A test run's write: the same reads and cell checks as `write`, nothing written. Throws what
   * `write` would (`tables.not_found`, `tables.write_refused` naming the column, value and why);
   * answers what the step's data shows (`simulated: true`, the cells as they would be stored).
   */
  check(input: { op: 'insert' | 'update' | 'upsert'; tableId: string; rowId?: string; cells: Cells }): Promise<SimulatedWrite>;
}

/** What a test run's table write answers: no row; the cells given, as the table would store them. */
export interface SimulatedWrite {
  row: null;
  replayed: false;
  simulated: true;
  cells: Cells;
  /** Upserts: whether the row would be created. */
  created?: boolean;
}

export interface HttpCapability {
  /**
   * A request through the network guard (DNS resolved and checked, redirects re-checked), bounded
   * to `maxResponseBytes`. Throws NodeFailure `http_blocked`, `http_error`, `http_response_too_large`,
   * `http_too_many_redirects`; a 429/503 with Retry-After throws RateLimited.
   *
   * With `credentialId`, one of the member's (or the organisation's) `http_generic` connections is put
   * on the request by the capability itself (./http-credential.ts): only to the connection's hosts
   * (else `http_credential_host_not_allowed` / `http_credential_hosts_missing`, before anything is
   * sent), dropped on an origin change, every form of it masked in the answer, never opened by a
   * simulated run; `credential_missing` when it is not there.
   */
  request(input: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body?: string;
    maxResponseBytes: number;
    followRedirects: boolean;
    signal: AbortSignal;
    credentialId?: string;
  }): Promise<HttpAnswer>;
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  url: string;
  /** Simulated runs: what would have been sent (method, URL, headers), secrets masked. */
  request?: { method: string; url: string; headers: Record<string, string> };
}

export interface NotifyCapability {
  /** A notification to the workflow's owner (effect-keyed by the engine through `effect`). */
  owner(input: { title: string; body: string; severity: 'info' | 'warning' | 'error'; link?: string | null }): Promise<{ id: string }>;
}

export interface SignalCapability {
  /** Marks a message (and its thread) with a named signal; at most once per message and name. */
  mark(input: { effectKey: string; messageId: string; name: string }): Promise<{ created: boolean }>;
}

/** Where an approval stands, as the approval step reads it back. */
export interface ApprovalOutcome {
  approvalId: string;
  status: 'pending' | 'approved' | 'rejected' | 'expired';
  decidedBy: string | null;
  /** Why it ended without a decision (`expired`, `cancelled`), else null. */
  reason: string | null;
  expiresAt: string;
}

/** What an approval step asks: the approvals domain takes the same shape (its engine-api). */
export interface ApprovalRequest {
  nodeId: string;
  title: string;
  details: string | null;
  expiresAt: Date;
  approverEmails: string[];
  mailboxId: string | null;
}

export interface ApprovalsCapability {
  /**
   * Asks for a decision, once per step (idempotent on the run and node): the Approval row, its
   * single-use link token, the `approval.pending` notification, a live event and, with approvers,
   * the approval email through the send pipeline, in one transaction. A repeat answers the first.
   * Throws NodeFailure `mail.mailbox_required` / `mail.mailbox_not_active` when approvers are given
   * and no usable mailbox is.
   */
  request(input: ApprovalRequest): Promise<ApprovalOutcome>;
  /** The deadline passed: a still pending approval becomes `expired`; answers where it stands. */
  expire(input: { nodeId: string }): Promise<ApprovalOutcome>;
}

/** What mail.draft / mail.send ask for; null fields take their defaults (see SendCapability.prepare). */
export interface OutboundRequest {
  /** One of the member's mailboxes; null: the mailbox of the message answered. */
  mailboxId: string | null;
  /** The message answered (threading headers, default recipients and subject), or null: a new message. */
  answer: { messageId: string; mode: 'reply' | 'replyAll' } | null;
  /** Null: the answer's recipients (a new message needs `to`, `cc` or `bcc`). */
  to: string[] | null;
  cc: string[] | null;
  bcc: string[];
  /** Null: `Re: …` of the original for an answer, else empty. */
  subject: string | null;
  bodyText: string | null;
  bodyHtml: string | null;
  /** Attachments of messages of the member's mirror; `position` null: all of that message's. */
  attachments: { messageId: string; position: number | null }[];
  /**
   * Append the resolved signature of the first recipient (from the sending mailbox's point of view: a
   * card's signature, else the mailbox's or the member's default) to each body: its text to the text
   * body, its sanitised HTML to the HTML body. Never twice: a body that already carries it is left as
   * it is. Absent: false.
   */
  signature?: boolean;
}

/** The request with its defaults applied and checked against the mirror: what will be written. */
export interface PreparedOutbound {
  mailboxId: string;
  mailboxAddress: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  bodyText: string | null;
  bodyHtml: string | null;
  attachments: { messageId: string; position: number }[];
  related: { messageId: string; relation: 'reply' | 'replyAll' } | null;
}

export interface OutboundOutcome {
  itemId: string;
  reviewStatus: string;
  sendStatus: string;
  messageIdHeader: string;
  to: string[];
  subject: string;
  duplicate: boolean;
}

export interface SendCapability {
  /**
   * Applies the defaults and checks the request against the mirror (reads only; the same in a test
   * run). NodeFailure `mail.mailbox_required`, `mail.mailbox_not_active`, `mail.message_not_found`,
   * `invalid_parameter`.
   */
  prepare(request: OutboundRequest): Promise<PreparedOutbound>;
  /**
   * Makes the outbound item through createOutbound, keyed by the step's effect key (a retry is the
   * same item), with the run as its source. `draft`: always reviewed; `send`: reviewed unless the
   * workflow's settings say `sendWithoutReview` (then the send job is enqueued).
   */
  create(input: { effectKey: string; mode: 'draft' | 'send'; node: { id: string; type: string }; prepared: PreparedOutbound }): Promise<OutboundOutcome>;
}

/** What an AI node asks the model (./ai.ts). */
export interface AiCallInput {
  /** The routing purpose (llm domain): classify, extract, compose, general. */
  purpose: 'classify' | 'extract' | 'compose' | 'general';
  /** A model the node names (used within the connection's enabled models), else the routing's. */
  model?: string;
  system: string;
  messages: AiMessage[];
  /** Structured output: the answer is validated into `object`. */
  output?: z.ZodType;
  tools?: Record<string, AiToolDefinition>;
  /** The attempt's signal (timeout, cancellation). */
  signal: AbortSignal;
  /** What a simulated run answers when it does not call the model (deterministic). */
  simulate: () => { text: string; object?: unknown };
}

export interface AiCallOutcome {
  text: string;
  object?: unknown;
  toolCalls: AiToolCall[];
  provider: string | null;
  model: string | null;
  usage: AiUsage | null;
  /** The call's cost at today's prices; null when unpriced or not called. */
  costUsd: number | null;
  /** True when a simulated run answered without calling the model. */
  simulated: boolean;
}

export interface AiCapability {
  /**
   * One model call: model resolved by the llm routing, budgets enforced first (NodeFailure
   * `llm.budget_exceeded`, no cost), usage recorded with its cost. A provider's rate limit throws
   * RateLimited; temporary failures `ai_call_failed` (transient), others permanent. No provider can
   * serve: NodeFailure `llm.no_provider` (the engine marks the step `llmSkipped` under onError `continue`).
   */
  call(input: AiCallInput): Promise<AiCallOutcome>;
}

/** The layers of the address book, as the contacts domain names them (issue 22). */
export type ContactLayerName =
  | 'org_default'
  | 'shared_domain'
  | 'shared_contact'
  | 'member_default'
  | 'member_mailbox_default'
  | 'member_domain'
  | 'member_contact'
  | 'member_mailbox_domain'
  | 'member_mailbox_contact';

/**
 * An address's resolved address book entry as a run sees it: the run member's point of view, and the
 * mailbox's when one is given. Every field is null (notes empty) for an address nobody has a card for
 * and no default covers. `sources` names the layer that gave each value (notes: every layer that has some).
 */
export interface ContactCard {
  /** The address, normalised (lower-cased, the domain in punycode). */
  address: string;
  /** Whether some card (shared, the member's, the mailbox's; an address's or its domain's) covers it. */
  known: boolean;
  displayName: string | null;
  /** `customer`, `prospect`, `supplier`, `partner`, `vip`, `blocked`, or null. */
  status: string | null;
  language: string | null;
  formality: 'tu' | 'vous' | null;
  tone: 'formal' | 'neutral' | 'casual' | null;
  notes: string[];
  sources: {
    displayName: ContactLayerName | null;
    status: ContactLayerName | null;
    language: ContactLayerName | null;
    formality: ContactLayerName | null;
    tone: ContactLayerName | null;
    notes: ContactLayerName[];
  };
}

export interface ContactsCapability {
  /**
   * The resolved entry of an address for the run's member, from `mailboxId`'s point of view when given
   * (one of the member's mailboxes; another's is NodeFailure `contacts.mailbox_not_found`). Reads only:
   * the same in a test run.
   */
  lookup(input: { address: string; mailboxId?: string | null }): Promise<ContactCard>;
}

export interface Capabilities {
  mail: MailCapability;
  /** The address book (reads only). */
  contacts: ContactsCapability;
  /** Outbound mail (drafts and sends) of the workflow mail nodes. */
  send: SendCapability;
  tables: TablesCapability;
  http: HttpCapability;
  notify: NotifyCapability;
  signal: SignalCapability;
  approvals: ApprovalsCapability;
  ai: AiCapability;
}
