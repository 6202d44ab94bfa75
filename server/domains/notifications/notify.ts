/**
 * Records a notification for a member and tells their open browsers, in the caller's transaction.
 * Kinds and params are the spec's (Events); each kind's params are checked here so the feed never
 * serves a malformed one.
 */
import { z } from 'zod';
import { db, type Tx } from '../../core/db';
import { emitToMember } from '../../core/realtime/emit';
import { insertNotification } from './repo';

export const notificationParams = {
  'execution.failed': z.strictObject({
    workflowId: z.string(),
    workflowName: z.string(),
    executionId: z.string(),
    errorSummary: z.string().max(200),
  }),
  'mailbox.error': z.strictObject({ mailboxId: z.string(), address: z.string(), kind: z.string() }),
  'mailbox.recovered': z.strictObject({ mailboxId: z.string(), address: z.string() }),
  /** The runner's watchdog found an active mailbox silent (runner/mail/watchdog.ts); `reason` says which bound it passed. */
  'mailbox.stalled': z.strictObject({ mailboxId: z.string(), address: z.string(), reason: z.enum(['sync_overdue', 'watch_silent', 'dispatch_lag']) }),
  'mailbox.removed': z.strictObject({
    mailboxId: z.string(),
    address: z.string(),
    mode: z.enum(['disconnected', 'deleted']),
    unpublishedWorkflows: z.number().int().min(0),
  }),
  'approval.pending': z.strictObject({ approvalId: z.string(), workflowName: z.string(), subject: z.string().max(120).nullable() }),
  /** A workflow's notify-owner node. */
  'workflow.notice': z.strictObject({
    workflowId: z.string(),
    workflowName: z.string(),
    executionId: z.string(),
    title: z.string().max(120),
    body: z.string().max(1_000),
  }),
  /** The blast-radius guard held sends (server/domains/send-guard). */
  'send.held': z.strictObject({
    holdId: z.string(),
    reason: z.enum(['mailbox_hourly_cap', 'workflow_hourly_cap', 'auto_reply_loop', 'repeat_recipient']),
    mailboxAddress: z.string().optional(),
    workflowName: z.string().optional(),
    heldCount: z.number().int().min(0),
  }),
  /** The team operating the instance replied in a support thread of the member (server/domains/support). */
  'support.reply': z.strictObject({ threadId: z.string(), subject: z.string().max(120), authorName: z.string().max(200) }),
} as const;

export type NotificationKind = keyof typeof notificationParams;
export type Severity = 'info' | 'warning' | 'error';

export interface NewNotification<Kind extends NotificationKind> {
  memberId: string;
  kind: Kind;
  severity: Severity;
  params: z.input<(typeof notificationParams)[Kind]>;
  /** An in-app path (`/settings/mailboxes`), never built from request headers. */
  link?: string | null;
}

type Writer = Pick<Tx, 'notification' | '$executeRaw'>;

export async function notify<Kind extends NotificationKind>(input: NewNotification<Kind>, tx: Writer = db()): Promise<{ id: string }> {
  const params = notificationParams[input.kind].parse(input.params) as Record<string, unknown>;
  const row = await insertNotification(tx, { memberId: input.memberId, kind: input.kind, severity: input.severity, params: params as object, link: input.link ?? null });
  await emitToMember(input.memberId, 'notification.created', { id: row.id, kind: input.kind }, tx);
  return row;
}
