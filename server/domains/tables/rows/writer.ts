/** Who writes rows: a member (routes, interface) or a workflow execution acting for its member. */
import type { AuthenticatedActor } from '../../../core/auth/access';
import { auditByOf, type AuditBy } from '../../../core/audit';

export type RowWriter = { kind: 'member'; memberId: string } | { kind: 'execution'; executionId: string; memberId: string };

export interface WriteContext {
  writer: RowWriter;
  auditBy: AuditBy;
  ip: string | null;
}

export function memberWriteContext(actor: AuthenticatedActor, ip: string | null): WriteContext {
  return { writer: { kind: 'member', memberId: actor.member.id }, auditBy: auditByOf(actor), ip };
}

/** The row's writer columns. */
export function writerColumns(writer: RowWriter): { memberId: string; executionId: string | null } {
  return { memberId: writer.memberId, executionId: writer.kind === 'execution' ? writer.executionId : null };
}
