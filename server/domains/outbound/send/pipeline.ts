/**
 * The send pipeline: everything that leaves a mailbox goes through `runSend` (the `mail.send` task).
 *
 * 1. Claim (./claim.ts), in one transaction (every change conditional on `pending`): only a `pending` item whose
 *    review allows it (`none` or `sent`) and whose undo window / retry time is due (else its job is put back at that
 *    time). A mailbox that is not connected holds it (`held`, `mailbox_not_active`; released when the
 *    mailbox is reconnected); the blast-radius guard may hold it (`held`, `hold_id`). Otherwise it
 *    becomes `running` under this runner's id with its attempt counted, and the attempt is journaled.
 * 2. Send: attachments resolved, MIME built, handed to the mailbox's transport (no transaction open).
 * 3. Record, in one transaction: `done`, or per the failure (server/mail/send/errors.ts) back to
 *    `pending` with a later attempt (30 s doubling with jitter, 5 attempts; a rate limit waits as told
 *    and does not count), `failed`, or `unknown` when delivery cannot be confirmed.
 *
 * At most once: only a `pending` item is ever claimed, the claim is one conditional UPDATE (of two
 * claims at once, one changes the row; the other finds no `pending` row and stops), and a `running` item whose runner died is made `unknown` by the sweeper (./sweeper.ts),
 * never sent again without a member's decision. Each transaction announces `outbound.changed`.
 */
import { db } from '../../../core/db';
import { jobKeys } from '../../../core/jobs/catalogue';
import { enqueue } from '../../../core/jobs/enqueue';
import { log } from '../../../core/log';
import { resolveAttachments } from '../../../mail/send/attachments';
import { isSendError, type SendFailure } from '../../../mail/send/errors';
import { buildMime, envelopeRecipients } from '../../../mail/send/mime';
import { sendThroughMailbox, type SendResult, type TransportOptions } from '../../../mail/send/transport';
import { realtimeNotification } from '../../../core/realtime/emit';
import { announce, claim, type Claimed, type ClaimResult } from './claim';
import {
  finishJournalAttempt,
  markDone,
  releaseFailedAttempt,
  setDoneWarning,
  setJournalErrorMessage,
} from './repo';

export const sendPolicy = {
  /** Attempts before a send that keeps failing without delivering is `failed`. */
  maxAttempts: 5,
  /** First retry delay; doubles per attempt, ±20 % jitter. */
  baseDelayMs: 30_000,
  maxDelayMs: 30 * 60_000,
} as const;

export type SendRunResult = 'done' | 'failed' | 'unknown' | 'retry' | ClaimResult;

export interface SendRunOptions extends TransportOptions {
  runnerId: string;
}

async function deliver(claimed: Claimed, options: SendRunOptions): Promise<SendResult> {
  const { item } = claimed;
  const attachments = await resolveAttachments(item);
  const mime = {
    from: claimed.mailbox.address || item.mailboxAddress,
    fromName: claimed.fromName,
    to: item.toAddrs,
    cc: item.ccAddrs,
    bcc: item.bccAddrs,
    subject: item.subject,
    messageIdHeader: item.messageIdHeader,
    inReplyTo: item.inReplyTo,
    references: item.references,
    date: new Date(),
    bodyText: item.bodyText,
    bodyHtml: item.bodyHtml,
    attachments,
  };
  const raw = await buildMime(mime);
  // The copy with its Bcc differs only when there is one.
  const sentCopy = mime.bcc.length > 0 ? await buildMime(mime, { keepBcc: true }) : raw;
  return sendThroughMailbox(
    claimed.mailbox,
    { from: mime.from, recipients: envelopeRecipients(mime), raw, sentCopy, messageIdHeader: item.messageIdHeader, providerThreadId: null },
    options,
  );
}

/** The delay before attempt `attempt + 1`: 30 s doubling, ±20 % jitter, capped. */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(sendPolicy.maxDelayMs, sendPolicy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

function textOrNull(lines: string[]): string | null {
  if (lines.length === 0) return null;
  const text = lines.join(' ');
  return text.length > 1000 ? `${text.slice(0, 999)}…` : text;
}

/** The item `done`, its journal row and the announcement: one statement (atomic, one round trip). */
async function recordDone(claimed: Claimed, result: SendResult, runnerId: string): Promise<void> {
  const warning = textOrNull(result.warnings);
  const notice = realtimeNotification(claimed.item.memberId, 'outbound.changed', { outboundId: claimed.item.id, mailboxId: claimed.item.mailboxId, sendStatus: 'done' });
  // A sweeper that gave up on this attempt (`unknown`) is corrected: the send is known to be done.
  await markDone({ id: claimed.item.id, attempt: claimed.attempt, journalId: claimed.journalId, runnerId }, result.providerMessageId, warning, notice);
}

/** A warning found after the send was recorded (the Sent copy not saved). */
async function recordWarning(claimed: Claimed, warnings: string[]): Promise<void> {
  const text = textOrNull(warnings);
  await db().$transaction(async (tx) => {
    await setDoneWarning(tx, claimed.item.id, text);
    await setJournalErrorMessage(tx, claimed.journalId, text);
    await announce(tx, claimed.item, 'done');
  });
}

async function recordFailure(claimed: Claimed, failure: SendFailure, runnerId: string): Promise<Exclude<SendRunResult, 'done'>> {
  return db().$transaction(async (tx) => {
    const { item, attempt } = claimed;
    let status: 'pending' | 'failed' | 'unknown';
    let nextAttemptAt: Date | null = null;
    let countsAttempt = true;
    if (failure.outcome === 'unknown') status = 'unknown';
    else if (failure.outcome === 'failed') status = 'failed';
    else if (failure.outcome === 'rate_limited') {
      status = 'pending';
      countsAttempt = false;
      nextAttemptAt = new Date(Date.now() + Math.max(1_000, failure.retryAfterMs ?? sendPolicy.baseDelayMs));
    } else if (attempt >= sendPolicy.maxAttempts) status = 'failed';
    else {
      status = 'pending';
      nextAttemptAt = new Date(Date.now() + retryDelayMs(attempt));
    }
    const rows = await releaseFailedAttempt(tx, { id: item.id, runnerId, attempt }, { status, kind: failure.kind, message: failure.message, nextAttemptAt, countsAttempt });
    if (rows.length === 0) return 'skipped';
    await finishJournalAttempt(tx, claimed.journalId, { result: status === 'unknown' ? 'unknown' : 'failed', errorKind: failure.kind, errorMessage: failure.message });
    if (status === 'pending') await enqueue('mail.send', { outboundId: item.id }, { jobKey: jobKeys.send(item.id), runAt: nextAttemptAt ?? undefined }, tx);
    await announce(tx, item, status);
    return status === 'pending' ? 'retry' : status;
  });
}

/** A record that must not be lost to a passing database hiccup after the message left. */
async function persist<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

export async function runSend(outboundId: string, options: SendRunOptions): Promise<SendRunResult> {
  const answer = await claim(outboundId, options.runnerId);
  if ('result' in answer) return answer.result;
  const { claimed } = answer;
  let result: SendResult;
  try {
    result = await deliver(claimed, options);
  } catch (error) {
    const failure: SendFailure = isSendError(error)
      ? error.failure
      : // Our own failure before anything reached the transport: nothing left; retried like a network failure.
        { outcome: 'retry', kind: 'internal', message: 'The message could not be prepared.' };
    if (!isSendError(error)) log.warn({ err: error, outboundId }, 'send: preparing the message failed');
    return persist(() => recordFailure(claimed, failure, options.runnerId));
  }
  await persist(() => recordDone(claimed, result, options.runnerId));
  const warning = result.followUp ? await result.followUp().catch(() => 'The message was sent, but its copy could not be saved in the Sent folder.') : null;
  if (warning) await persist(() => recordWarning(claimed, [...result.warnings, warning]));
  await askForSentCopy(claimed.item.mailboxId);
  return 'done';
}

/**
 * The sent copy (appended to Sent, or filed by the provider) reaches the mirror, and so the thread,
 * through the mailbox's sync: ask for one now rather than at the next poll. Best effort: the poll
 * still finds it.
 */
async function askForSentCopy(mailboxId: string): Promise<void> {
  await enqueue('mail.sync', { mailboxId, reason: 'manual' }, { jobKey: jobKeys.sync(mailboxId) }).catch((error: unknown) =>
    log.warn({ err: error, mailboxId }, 'send: asking for a sync of the sent copy failed'),
  );
}
