/**
 * A message's signals, computed once at ingest: the workflow triggers' guardrails rely on them to
 * never answer a machine, a list or oneself. Pure functions over header values (lower-cased names,
 * unfolded values, as `headerValues` builds them) and the content types of the MIME parts, so they
 * are tested by tables (./signals.test.ts) and against a corpus of real-world header sets
 * (./signals-corpus.test.ts over server/testing/mail-corpus).
 *
 * Each signal says what kind of mail it is, the way a person would sort it. The kinds are kept apart
 * where a sender's headers blur them: a vacation responder stamps `Precedence: bulk` on its reply to
 * discourage answers, and an MTA stamps `Auto-Submitted` on its bounces, yet the first is an
 * auto-reply (not bulk mail) and the second a delivery report (not an auto-reply).
 *
 * Decisions:
 * - isDeliveryReport: a machine report about a message: the top-level `Content-Type` is
 *   `multipart/report` (RFC 6522: bounces and delays, RFC 3464 `delivery-status`; read receipts,
 *   RFC 8098 `disposition-notification`; any other report type), or Exim's `X-Failed-Recipients` is
 *   present, or the sender's local part is `mailer-daemon` (qmail and older MTAs bounce in plain text).
 * - isAutoReply: automatically submitted mail as RFC 3834 defines it, unless it is a delivery report:
 *   `Auto-Submitted` with any value but `no` (auto-replied, auto-generated, auto-notified, vendor
 *   values such as Zimbra's); `X-Autoreply` / `X-Autorespond` / `X-Autoresponder` present (values
 *   other than `no`/`false`/`0`/`off`); `Precedence` (or `X-Precedence`) `auto_reply`; Exchange's
 *   auto-reply shape, `X-MS-Exchange-Inbox-Rules-Loop` together with `X-Auto-Response-Suppress`
 *   (what older Exchange stamps on out-of-office replies, which carry no `Auto-Submitted`). Alone,
 *   `X-MS-Exchange-Inbox-Rules-Loop` marks a message an inbox rule forwarded or redirected (a
 *   person's mail, still worth a workflow) and `X-Auto-Response-Suppress` a sender asking not to be
 *   auto-answered (notifications and ordinary Outlook mail carry it): neither makes an auto-reply.
 *   `X-MS-Exchange-Generated-Message-Source` is not read: on the Exchange replies seen it comes with
 *   `Auto-Submitted` or the shape above, and alone it also marks other rule-generated mail.
 * - isBulk: mass mail (newsletters, marketing, bulk notices), unless it is an auto-reply or a
 *   delivery report: `Precedence` (or `X-Precedence`) `bulk` or `junk`, or a one-way list
 *   (`List-Unsubscribe` or `List-Id` present, but neither `List-Post` nor `Precedence: list`, which a
 *   discussion list or a notification list sets).
 * - isNoReply: the sender's local part, lower-cased without `+tag` and without `-`, `_`, `.`, is or starts
 *   with `noreply`/`donotreply`/`dontreply`, or is `mailerdaemon`, `postmaster`, `bounce`, `bounces`.
 * - isMailingList: `List-Id`, `List-Unsubscribe` or `List-Post` present with a value, or
 *   `Precedence: list` (discussion lists, notification lists and newsletters alike: isBulk tells the
 *   newsletters apart).
 * - isCalendar: an iCalendar part (`text/calendar`, at the top level or in any part): invitations,
 *   updates, cancellations and attendees' answers (iMIP, RFC 6047), or an event sent as a file.
 * - isFromSelf: the From address equals the mailbox's address, ignoring case and surrounding spaces.
 * - listId (not a signal, read from the same headers): the first `List-Id` value's id (RFC 2919: the
 *   text inside the last `<...>`, or the bare value when it has no brackets and no space), lower-cased,
 *   kept only when it is a dot-atom of at most 255 characters (RFC 2919's bound); else null.
 */

export interface MessageSignals {
  isAutoReply: boolean;
  isNoReply: boolean;
  isMailingList: boolean;
  isFromSelf: boolean;
  isBulk: boolean;
  isDeliveryReport: boolean;
  isCalendar: boolean;
}

/** Header values by lower-cased name (as `headerValues` builds them). */
export type HeaderValues = ReadonlyMap<string, readonly string[]>;

/** Header names the signals read; ingest keeps no other raw header for them. */
export const signalHeaderNames = [
  'auto-submitted',
  'x-autoreply',
  'x-autorespond',
  'x-autoresponder',
  'x-auto-response-suppress',
  'x-ms-exchange-inbox-rules-loop',
  'x-failed-recipients',
  'precedence',
  'x-precedence',
  'content-type',
  'list-id',
  'list-unsubscribe',
  'list-post',
] as const;

function values(headers: HeaderValues, name: string): readonly string[] {
  return headers.get(name) ?? [];
}

function present(headers: HeaderValues, name: string): boolean {
  return values(headers, name).some((value) => value.trim() !== '');
}

/** The first token of a header value (before `;`, `(` or whitespace), lower-cased. */
function token(value: string): string {
  return value.trim().split(/[;(\s]/, 1)[0]!.toLowerCase();
}

function precedenceIs(headers: HeaderValues, accepted: ReadonlySet<string>): boolean {
  return ['precedence', 'x-precedence'].some((name) => values(headers, name).some((value) => accepted.has(token(value))));
}

function localPartOf(fromEmail: string | null): string {
  if (!fromEmail) return '';
  const at = fromEmail.lastIndexOf('@');
  return (at < 0 ? fromEmail : fromEmail.slice(0, at)).trim().toLowerCase();
}

const negative = new Set(['no', 'false', '0', 'off']);

export function isDeliveryReport(headers: HeaderValues, fromEmail: string | null): boolean {
  if (values(headers, 'content-type').some((value) => token(value) === 'multipart/report')) return true;
  if (present(headers, 'x-failed-recipients')) return true;
  return localPartOf(fromEmail) === 'mailer-daemon';
}

/** RFC 3834's automatic mail, whatever the kind (the delivery report exception is `signalsOf`'s). */
export function isAutoSubmitted(headers: HeaderValues): boolean {
  if (values(headers, 'auto-submitted').some((value) => token(value) !== '' && token(value) !== 'no')) return true;
  for (const name of ['x-autoreply', 'x-autorespond', 'x-autoresponder']) {
    if (values(headers, name).some((value) => !negative.has(token(value)))) return true;
  }
  if (precedenceIs(headers, new Set(['auto_reply']))) return true;
  return headers.has('x-ms-exchange-inbox-rules-loop') && headers.has('x-auto-response-suppress');
}

/** Mass mail by its headers (the auto-reply and delivery report exceptions are `signalsOf`'s). */
export function isBulkMail(headers: HeaderValues): boolean {
  if (precedenceIs(headers, new Set(['bulk', 'junk']))) return true;
  const oneWay = present(headers, 'list-unsubscribe') || present(headers, 'list-id');
  return oneWay && !present(headers, 'list-post') && !precedenceIs(headers, new Set(['list']));
}

const noReplyPrefixes = ['noreply', 'donotreply', 'dontreply'];
const noReplyExact = new Set(['mailerdaemon', 'postmaster', 'bounce', 'bounces']);

export function isNoReply(fromEmail: string | null): boolean {
  const local = localPartOf(fromEmail);
  const plus = local.indexOf('+');
  const bare = (plus < 0 ? local : local.slice(0, plus)).replace(/[-_.]/g, '');
  if (bare === '') return false;
  return noReplyExact.has(bare) || noReplyPrefixes.some((prefix) => bare.startsWith(prefix));
}

export function isMailingList(headers: HeaderValues): boolean {
  if (['list-id', 'list-unsubscribe', 'list-post'].some((name) => present(headers, name))) return true;
  return values(headers, 'precedence').some((value) => token(value) === 'list');
}

/** `partTypes`: the content types of the message's non-body parts (lower-cased, without parameters). */
export function isCalendar(headers: HeaderValues, partTypes: readonly string[]): boolean {
  if (values(headers, 'content-type').some((value) => token(value) === 'text/calendar')) return true;
  return partTypes.some((type) => type.trim().toLowerCase() === 'text/calendar');
}

const listIdMax = 255;
const listIdPattern = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

/** The mailing list's id from `List-Id` (see the decisions above), or null. */
export function listIdOf(headers: HeaderValues): string | null {
  const value = values(headers, 'list-id').find((item) => item.trim() !== '');
  if (value === undefined) return null;
  const bracketed = value.match(/<([^<>]*)>/g);
  const raw = bracketed ? bracketed[bracketed.length - 1]!.slice(1, -1) : value;
  const id = raw.trim().toLowerCase();
  if (id === '' || id.length > listIdMax || !listIdPattern.test(id)) return null;
  return id;
}

export function isFromSelf(fromEmail: string | null, mailboxAddress: string): boolean {
  if (!fromEmail) return false;
  return fromEmail.trim().toLowerCase() === mailboxAddress.trim().toLowerCase();
}

export function signalsOf(input: {
  headers: HeaderValues;
  fromEmail: string | null;
  mailboxAddress: string;
  partTypes?: readonly string[];
}): MessageSignals {
  const report = isDeliveryReport(input.headers, input.fromEmail);
  const autoReply = !report && isAutoSubmitted(input.headers);
  return {
    isAutoReply: autoReply,
    isNoReply: isNoReply(input.fromEmail),
    isMailingList: isMailingList(input.headers),
    isFromSelf: isFromSelf(input.fromEmail, input.mailboxAddress),
    isBulk: !report && !autoReply && isBulkMail(input.headers),
    isDeliveryReport: report,
    isCalendar: isCalendar(input.headers, input.partTypes ?? []),
  };
}
