import type { AuthenticatedActor } from '../../core/auth/access';
import { appError } from '../../core/errors/app-error';
import type { DashboardQuery } from './query';

/**
 * Whose facts a dashboard counts. `memberId` null means every member (an administrator's `org`
 * scope). Under `scope=me` every statement also filters on the reader, so a `mailboxId` or
 * `workflowId` of another member's matches nothing: it counts as nothing, and its existence does
 * not show.
 */
export interface DashboardAudience {
  memberId: string | null;
  mailboxId: string | null;
  workflowId: string | null;
  /** Whether the reader may see other members (names, the per-member breakdowns). */
  isAdmin: boolean;
}

export function resolveAudience(actor: AuthenticatedActor, query: DashboardQuery): DashboardAudience {
  const isAdmin = actor.member.role === 'admin';
  if ((query.scope === 'org' || query.memberId !== undefined) && !isAdmin) throw appError('dashboard.forbidden');
  if (query.memberId !== undefined && query.scope !== 'org') {
    throw appError('dashboard.bad_request', { message: '`memberId` goes with `scope=org`.', details: { reason: 'member_needs_org_scope' } });
  }
  return {
    memberId: query.scope === 'org' ? (query.memberId ?? null) : actor.member.id,
    mailboxId: query.mailboxId ?? null,
    workflowId: query.workflowId ?? null,
    isAdmin,
  };
}
