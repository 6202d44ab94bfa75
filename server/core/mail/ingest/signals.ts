/**
 * A message's signals, computed once at ingest: the workflow triggers' guardrails rely on them to
 * never answer a machine, a list or oneself. Pure functions over header values (lower-cased names,
 * decoded, unfolded values) so they are tested by tables.
 *
 * Decisions:
 * - isAutoReply is "automatically generated mail that must never get an automatic answer" (RFC 3834
 *   §2): `Auto-Submitted` with any value but `no` (auto-replied, auto-generated, auto-notified);
 *   `X-Autoreply` / `X-Autorespond` / `X-Autoresponder` present (values other than `no`/`false`);
 *   `X-Auto-Response-Suppress` is NOT one (Exchange sets it on ordinary mail too); `Precedence` (or
 *   `X-Precedence`) `auto_reply`, `bulk` or `junk` (mass and machine mail RFC 3834 says never to
 *   answer; `list` is a mailing list instead); a delivery report (`Content-Type: multipart/report`,
 *   bounces and read receipts).
 * - isNoReply: the sender's local part, lower-cased without `+tag` and without `-`, `_`, `.`, is or starts
 *   with `noreply`/`donotreply`/`dontreply`, or is `mailerdaemon`, `postmaster`, `bounce`, `bounces`.
 * - isMailingList: `List-Id`, `List-Unsubscribe` or `List-Post` present with a value, or
 *   `Precedence: list`.
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
}

/** Header values by lower-cased name (as `headerValues` builds them). */
export type HeaderValues = ReadonlyMap<string, readonly string[]>;

function values(headers: HeaderValues, name: string): readonly string[] {
  return headers.get(name) ?? [];
}

/** The first token of a header value (before `;` or whitespace), lower-cased. */
function token(value: string): string {
  return value.trim().split(/[;\s]/, 1)[0]!.toLowerCase();
}

const negative = new Set(['no', 'false', '0', 'off']);
const machinePrecedence = new Set(['auto_reply', 'bulk', 'junk']);

export function isAutoReply(headers: HeaderValues): boolean {
  if (values(headers, 'auto-submitted').some((value) => token(value) !== '' && token(value) !== 'no')) return true;
  for (const name of ['x-autoreply', 'x-autorespond', 'x-autoresponder']) {
    if (values(headers, name).some((value) => !negative.has(token(value)))) return true;
  }
  for (const name of ['precedence', 'x-precedence']) {
    if (values(headers, name).some((value) => machinePrecedence.has(token(value)))) return true;
  }
  return values(headers, 'content-type').some((value) => token(value) === 'multipart/report');
}

const noReplyPrefixes = ['noreply', 'donotreply', 'dontreply'];
const noReplyExact = new Set(['mailerdaemon', 'postmaster', 'bounce', 'bounces']);

export function isNoReply(fromEmail: string | null): boolean {
  if (!fromEmail) return false;
  const at = fromEmail.lastIndexOf('@');
  const local = (at < 0 ? fromEmail : fromEmail.slice(0, at)).trim().toLowerCase();
  const plus = local.indexOf('+');
  const bare = (plus < 0 ? local : local.slice(0, plus)).replace(/[-_.]/g, '');
  if (bare === '') return false;
  return noReplyExact.has(bare) || noReplyPrefixes.some((prefix) => bare.startsWith(prefix));
}

export function isMailingList(headers: HeaderValues): boolean {
  for (const name of ['list-id', 'list-unsubscribe', 'list-post']) {
    if (values(headers, name).some((value) => value.trim() !== '')) return true;
  }
  return values(headers, 'precedence').some((value) => token(value) === 'list');
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

export function signalsOf(input: { headers: HeaderValues; fromEmail: string | null; mailboxAddress: string }): MessageSignals {
  return {
    isAutoReply: isAutoReply(input.headers),
    isNoReply: isNoReply(input.fromEmail),
    isMailingList: isMailingList(input.headers),
    isFromSelf: isFromSelf(input.fromEmail, input.mailboxAddress),
  };
}
