/**
 * Incoming mail trigger: a new message (ingested as new mail, never a resync or backfill) of the
 * watched mailboxes and folders, filtered by sender, subject, attachments and signals. Mail dispatch
 * (server/engine/dispatch) calls `mailTriggerMatches` on the published version's parameters; the
 * message summary it builds becomes the run's trigger data, which this node passes on.
 *
 * Guardrails (the kinds are server/mail/ingest/signals.ts's): automatic mail (auto-replies and
 * delivery reports: bounces, read receipts), no-reply senders, and list or bulk mail (mailing lists,
 * newsletters) start nothing unless the trigger explicitly includes that category
 * (`includeAutoReplies`, `includeNoReply`, `includeMailingLists`); mail from the mailbox itself (the
 * loop guard) never does, whatever is included. Calendar mail is a person's mail: no guardrail.
 *
 * `bulkOnly` matches on the bulk signal (newsletters, marketing mail: List-Unsubscribe with a
 * sending platform's headers, Precedence: bulk…), never on the sender's address: most newsletters come
 * from addresses that do not say "newsletter" (issue 19 §2).
 */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';

const filterText = z.string().trim().min(1).max(200);
const signalName = z.string().trim().min(1).max(64);

export const mailTriggerParams = z.strictObject({
  mailboxIds: z.array(z.uuid()).max(50).default([]).describe('Mailboxes watched; empty: every mailbox of the member.'),
  folders: z.array(z.string().trim().min(1).max(200)).min(1).max(20).default(['inbox']).describe('Folder roles or keys (`inbox`, `archive`, …; `all`: every folder).'),
  from: z.array(filterText).max(50).default([]).describe('The sender address or name contains one of these (case-insensitive); empty: any sender.'),
  subject: z.array(filterText).max(50).default([]).describe('The subject contains one of these (case-insensitive); empty: any subject.'),
  hasAttachments: z.boolean().optional().describe('Only messages with (true) or without (false) attachments.'),
  includeAutoReplies: z
    .boolean()
    .default(false)
    .describe('Also start for automatic mail: auto-replies (out-of-office, vacation, machine notices) and delivery reports (bounces, read receipts).'),
  includeNoReply: z.boolean().default(false).describe('Also start for mail from no-reply senders (noreply@, mailer-daemon@…).'),
  includeMailingLists: z.boolean().default(false).describe('Also start for list and bulk mail: mailing lists, newsletters, marketing mail.'),
  bulkOnly: z
    .boolean()
    .optional()
    .describe('Only bulk mail: newsletters and marketing mail, recognised by their headers whoever sends them (discussion lists are not bulk). Lets it past the list guardrail.'),
  requireSignals: z.array(signalName).max(20).default([]).describe('Signals the message must carry (all of them).'),
  excludeSignals: z.array(signalName).max(20).default([]).describe('Signals the message must not carry.'),
  senderCard: z
    .boolean()
    .default(true)
    .describe('Put the sender’s address book entry in the trigger data (`contact`). Through an API key it needs `contacts:read`; off, `contact` is null.'),
});

export type MailTriggerParams = z.output<typeof mailTriggerParams>;

const layer = z.string().nullable();

/**
 * The sender's address book entry in the trigger data (`trigger.contact`): the contacts domain's
 * resolution for the workflow's member from the mailbox's point of view (ContactCard of the contract).
 */
export const triggerContact = z
  .strictObject({
    address: z.string().describe('The sender’s address, normalised (lower case).'),
    known: z.boolean().describe('Whether a card of the address book (not a default) covers the sender: the address’s or its domain’s.'),
    displayName: z.string().nullable().describe('The name the organisation’s card gives.'),
    status: z.string().nullable().describe('`customer`, `prospect`, `supplier`, `partner`, `vip` or `blocked` (the organisation’s card), or null.'),
    language: z.string().nullable().describe('The language to write in (BCP 47), or null.'),
    formality: z.enum(['tu', 'vous']).nullable().describe('`tu` or `vous`, or null.'),
    tone: z.enum(['formal', 'neutral', 'casual']).nullable().describe('`formal`, `neutral` or `casual`, or null.'),
    notes: z.array(z.string()).describe('The notes of every card and default that has some, most specific first.'),
    sources: z
      .strictObject({
        displayName: layer,
        status: layer,
        language: layer,
        formality: layer,
        tone: layer,
        notes: z.array(z.string()),
      })
      .describe('The layer that gave each value (`member_contact`, `shared_domain`, `org_default`…).'),
  })
  .nullable()
  .describe('The sender’s address book entry (null: no sender address).');

/** An attachment's metadata in the trigger data (its content is read by the nodes that need it). */
export const triggerAttachment = z.strictObject({
  id: z.string().describe('The attachment’s id.'),
  position: z.number().int().describe('Its MIME position (what the attachment download takes).'),
  filename: z.string().describe('Its file name.'),
  contentType: z.string().describe('Its media type (`application/pdf`…).'),
  size: z.number().int().describe('Its size in bytes.'),
  disposition: z.string().describe('`attachment`, or `inline` (an image shown in the body).'),
});

const address = z.strictObject({ name: z.string().nullable().describe('The display name, if any.'), email: z.string().describe('The address.') });

/**
 * The trigger data of a mail run: the message summary dispatch builds (dispatch-mail.ts `summaryOf`,
 * typed by it, so the two cannot drift), also what a test run on a mirrored message receives. `contact`
 * is the sender's address book entry, so a workflow can branch on `trigger.contact.status = "vip"`;
 * `text` and `attachments` are the whole message (dispatch/message-content.ts), so a workflow reads the
 * body, not only its preview.
 */
export const mailTriggerData = z.strictObject({
  id: z.string().describe('The message id (to act on it: move, label, reply).'),
  mailboxId: z.string().describe('The mailbox it arrived in.'),
  threadId: z.string().nullable().describe('Its conversation.'),
  subject: z.string().nullable().describe('The subject.'),
  from: z.strictObject({ name: z.string().nullable().describe('The sender’s name.'), email: z.string().nullable().describe('The sender’s address.') }).describe('The sender.'),
  to: z.array(address).describe('The recipients.'),
  cc: z.array(address).describe('The copied recipients.'),
  receivedAt: z.string().describe('When it arrived (ISO 8601).'),
  snippet: z.string().nullable().describe('The start of the text.'),
  text: z
    .string()
    .nullable()
    .describe('The body as plain text (an HTML-only body reduced to text), at most 64 KB; null when the mirror does not keep the body (a mailbox synced in processing-only mode).'),
  textTruncated: z.boolean().describe('Whether `text` was cut (a body over 64 KB).'),
  attachments: z.array(triggerAttachment).describe('The attachments’ metadata (no content), the first 50 in MIME order.'),
  attachmentsTruncated: z.boolean().describe('Whether the message has more than 50 attachments.'),
  labels: z.array(z.string()).describe('Its labels.'),
  folder: z.string().describe('The folder’s role (`inbox`…) or key.'),
  hasAttachments: z.boolean().describe('Whether it has attachments.'),
  isMailingList: z.boolean().describe('List mail (List-Id).'),
  isAutoReply: z.boolean().describe('An automatic reply (RFC 3834).'),
  isNoReply: z.boolean().describe('From a no-reply sender.'),
  isBulk: z.boolean().describe('Bulk mail (Precedence: bulk).'),
  isDeliveryReport: z.boolean().describe('A delivery report (bounce, read receipt).'),
  isCalendar: z.boolean().describe('A calendar invitation or answer.'),
  signals: z.array(z.string()).describe('Signals on the message or its thread.'),
  contact: triggerContact,
});

export type MailTriggerData = z.output<typeof mailTriggerData>;

/** What matching reads of a message. `folder` is the folder's role when it has one, else its key. */
export interface MatchableMessage {
  fromEmail: string | null;
  fromName: string | null;
  subject: string | null;
  folder: string;
  folderKey?: string;
  hasAttachments: boolean;
  isAutoReply: boolean;
  isNoReply: boolean;
  isMailingList: boolean;
  isFromSelf: boolean;
  isBulk: boolean;
  isDeliveryReport: boolean;
}

const containsAny = (value: string, needles: string[]) => {
  const haystack = value.toLowerCase();
  return needles.some((needle) => haystack.includes(needle.toLowerCase()));
};

export type MailGuardrail = 'from_self' | 'delivery_report' | 'auto_reply' | 'no_reply' | 'mailing_list' | 'bulk';

type GuardedKinds = Pick<MatchableMessage, 'isFromSelf' | 'isDeliveryReport' | 'isAutoReply' | 'isNoReply' | 'isMailingList' | 'isBulk'>;
type Inclusions = Pick<MailTriggerParams, 'includeAutoReplies' | 'includeNoReply' | 'includeMailingLists'> & Partial<Pick<MailTriggerParams, 'bulkOnly'>>;

const includesNothing: Inclusions = { includeAutoReplies: false, includeNoReply: false, includeMailingLists: false };

/**
 * The first guardrail that keeps the message from a trigger with these inclusions (none included
 * by default), or null: the loop guard, then automatic mail (delivery reports, auto-replies), no-reply
 * senders, list and bulk mail. The journal names it (`guardrail:<name>`).
 */
export function mailGuardrailOf(message: GuardedKinds, params: Inclusions = includesNothing): MailGuardrail | null {
  if (message.isFromSelf) return 'from_self';
  if (!params.includeAutoReplies && message.isDeliveryReport) return 'delivery_report';
  if (!params.includeAutoReplies && message.isAutoReply) return 'auto_reply';
  if (!params.includeNoReply && message.isNoReply) return 'no_reply';
  // A trigger asking for bulk mail only has asked for it: the list guardrail cannot keep it out.
  const listsIncluded = params.includeMailingLists || params.bulkOnly === true;
  if (!listsIncluded && message.isMailingList) return 'mailing_list';
  if (!listsIncluded && message.isBulk) return 'bulk';
  return null;
}

/**
 * The trigger parameter that lets a guarded kind of mail through (null: nothing does, the loop guard
 * is absolute): what "Why didn't it run?" offers to switch on.
 */
export const guardrailInclusion: Record<MailGuardrail, keyof Inclusions | null> = {
  from_self: null,
  delivery_report: 'includeAutoReplies',
  auto_reply: 'includeAutoReplies',
  no_reply: 'includeNoReply',
  mailing_list: 'includeMailingLists',
  bulk: 'includeMailingLists',
};

/** Whether a new message starts a workflow with these trigger parameters (mailboxes are checked by the caller). */
export function mailTriggerMatches(params: MailTriggerParams, message: MatchableMessage, signals: readonly string[]): boolean {
  if (mailGuardrailOf(message, params) !== null) return false;
  return mailTriggerFiltersMatch(params, message, signals);
}

/** A trigger filter, named by its parameter. */
export type MailTriggerFilter = 'bulkOnly' | 'folders' | 'from' | 'subject' | 'hasAttachments' | 'requireSignals' | 'excludeSignals';

/** The trigger's kind (`bulkOnly`), folder, sender, subject, attachment and signal filters alone (no guardrail). */
export function mailTriggerFiltersMatch(params: MailTriggerParams, message: MatchableMessage, signals: readonly string[]): boolean {
  return mailTriggerFilterMiss(params, message, signals) === null;
}

/** The first filter (in the parameters' order) the message does not pass, or null when it passes them all. */
export function mailTriggerFilterMiss(params: MailTriggerParams, message: MatchableMessage, signals: readonly string[]): MailTriggerFilter | null {
  if (params.bulkOnly === true && !message.isBulk) return 'bulkOnly';
  const folders = params.folders.map((folder) => folder.toLowerCase());
  if (!folders.includes('all')) {
    const names = [message.folder, message.folderKey ?? message.folder].map((name) => name.toLowerCase());
    if (!names.some((name) => folders.includes(name))) return 'folders';
  }
  if (params.from.length > 0) {
    const sender = `${message.fromName ?? ''} ${message.fromEmail ?? ''}`;
    if (!containsAny(sender, params.from)) return 'from';
  }
  if (params.subject.length > 0 && !containsAny(message.subject ?? '', params.subject)) return 'subject';
  if (params.hasAttachments !== undefined && params.hasAttachments !== message.hasAttachments) return 'hasAttachments';
  const carried = new Set(signals);
  if (!params.requireSignals.every((name) => carried.has(name))) return 'requireSignals';
  if (params.excludeSignals.some((name) => carried.has(name))) return 'excludeSignals';
  return null;
}

export const mailTriggerNode = defineNode({
  type: 'trigger.mail',
  version: 1,
  category: 'trigger',
  trigger: 'mail',
  label: { en: 'Incoming mail', fr: 'Courriel entrant' },
  description: {
    en: 'Starts the workflow for each new message of the chosen mailboxes and folders that matches the sender, subject, attachment and signal filters. Automatic mail (auto-replies, bounces, read receipts), no-reply senders and list mail (mailing lists, newsletters) are left out unless included; mail sent by the mailbox itself never starts it. The run receives the whole message: sender, recipients, subject, the body as text (`text`, up to 64 KB) and the attachments’ names, types and sizes (`attachments`).',
    fr: 'Démarre le workflow pour chaque nouveau message des boîtes et dossiers choisis qui correspond aux filtres d’expéditeur, d’objet, de pièces jointes et de signaux. Le courrier automatique (réponses automatiques, avis de non-remise, accusés de lecture), les expéditeurs « no-reply » et le courrier de liste (listes de diffusion, lettres d’information) sont ignorés sauf s’ils sont inclus ; le courrier envoyé par la boîte elle-même ne le démarre jamais. L’exécution reçoit le message entier : expéditeur, destinataires, objet, le corps en texte (`text`, jusqu’à 64 Ko) et les noms, types et tailles des pièces jointes (`attachments`).',
  },
  params: mailTriggerParams,
  output: mailTriggerData,
  outputs: ['main'],
  effect: 'none',
  requires: ['mail'],
  scopes: ['messages:read'],
  // The sender's card is address book data: a key that may not read the address book may not have a
  // graph read it for it (keys only narrow), so the card is a parameter the key's scopes answer for.
  parameterScopes: { senderCard: ['contacts:read'] },
  mailboxParams: ['mailboxIds'],
  async execute({ trigger }) {
    return { data: trigger ?? {} };
  },
});
