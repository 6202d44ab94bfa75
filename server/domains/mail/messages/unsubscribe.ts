/**
 * One-click unsubscribe (RFC 8058): POST `List-Unsubscribe=One-Click` to the https URL a list mail's
 * `List-Unsubscribe` names, only when its `List-Unsubscribe-Post` asks for one-click (decided at ingest:
 * server/mail/ingest/unsubscribe.ts). Through the network guard (no private addresses unless the
 * instance allows them), no cookies or credentials, redirects not followed (RFC 8058: the POST is the
 * whole exchange), bounded in time, the answer's body never read. Audited with the host only: the URL's
 * path and query are the list's token for this reader and stay out of the log.
 */
import type { AuthenticatedActor } from '../../../core/auth/access';
import { auditByOf, recordAudit } from '../../../core/audit';
import { appError } from '../../../core/errors/app-error';
import { guardedFetch } from '../../../core/net/guarded-fetch';
import { allowPrivateHosts, NetworkGuardError } from '../../../core/net/network-guard';
import { log } from '../../../core/log';
import type { ListUnsubscribe } from '../../../mail/ingest/unsubscribe';
import { completeMessage } from './complete';
import { findMemberMessage } from './repo';

export const unsubscribeLimits = {
  /** The whole exchange, until the answer's status. */
  timeoutMs: 10_000,
  connectTimeoutMs: 5_000,
} as const;

export function listUnsubscribeOfRow(value: unknown): ListUnsubscribe | null {
  if (!value || typeof value !== 'object') return null;
  const record = value as Record<string, unknown>;
  const oneClickUrl = typeof record.oneClickUrl === 'string' ? record.oneClickUrl : null;
  const mailto = typeof record.mailto === 'string' ? record.mailto : null;
  return oneClickUrl || mailto ? { oneClickUrl, mailto } : null;
}

export async function unsubscribeOneClick(actor: AuthenticatedActor, input: { id: string }, ip: string | null = null): Promise<{ unsubscribed: true; host: string; status: number }> {
  const found = await findMemberMessage(actor.member.id, input.id);
  if (!found) throw appError('webmail.message_not_found');
  // A row listed from its header has no unsubscribe yet (the body pass reads it from the whole message): read now.
  const message = found.bodyPending ? await completeMessage(actor.member.id, found) : found;
  const target = listUnsubscribeOfRow(message.listUnsubscribe)?.oneClickUrl ?? null;
  if (!target) throw appError('webmail.unsubscribe_unavailable');
  const host = new URL(target).host;
  let status: number;
  try {
    const response = await guardedFetch(
      target,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'mailflow-unsubscribe' },
        body: 'List-Unsubscribe=One-Click',
      },
      { allowPrivate: allowPrivateHosts(), followRedirects: false, timeoutMs: unsubscribeLimits.timeoutMs, connectTimeoutMs: unsubscribeLimits.connectTimeoutMs },
    );
    status = response.status;
    // Only the status matters; the body is dropped unread.
    await response.body?.cancel().catch(() => undefined);
  } catch (error) {
    const reason = error instanceof NetworkGuardError ? error.reason : 'unreachable';
    log.warn({ messageId: message.id, host, reason }, 'one-click unsubscribe failed');
    throw appError('webmail.unsubscribe_failed', { details: { host, reason } });
  }
  // 2xx is done; a redirect is the list's way of saying "see this page": the POST was received.
  if (status < 200 || status >= 400) throw appError('webmail.unsubscribe_failed', { details: { host, reason: 'refused', status } });
  await recordAudit(auditByOf(actor), { action: 'message.unsubscribed', targetKind: 'message', targetId: message.id, details: { host, status, method: 'one_click' }, ip });
  return { unsubscribed: true, host, status };
}
