/**
 * Administration of members: role changes, deactivation and reactivation, under the spec's rules —
 * never leave the team without an active administrator, never deactivate oneself.
 *
 * Changes that could remove the last active admin lock every active admin row first (FOR UPDATE), so
 * two administrators demoting each other at the same moment cannot both succeed.
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { auditByOf, recordAudit } from '../../core/audit';
import { db, type Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { revokeSessions } from '../auth/sessions';
import { presentMember } from './present';

async function lockActiveAdmins(tx: Tx): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM members WHERE role = 'admin' AND status = 'active' ORDER BY id FOR UPDATE`;
  return rows.map((row) => row.id);
}

async function findMemberOrThrow(tx: Tx, id: string) {
  const member = await tx.member.findUnique({ where: { id } });
  if (!member) throw appError('governance.not_found');
  return member;
}

async function refuseRemovingLastAdmin(tx: Tx, memberId: string) {
  const admins = await lockActiveAdmins(tx);
  if (admins.includes(memberId) && admins.length <= 1) throw appError('governance.last_admin');
}

export async function listMembers() {
  const members = await db().member.findMany({ orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return { members: members.map((member) => presentMember(member)) };
}

export async function changeRole(actor: AuthenticatedActor, input: { id: string; role: 'member' | 'admin' }, ip: string | null) {
  return db().$transaction(async (tx) => {
    if (input.role === 'member') await refuseRemovingLastAdmin(tx, input.id);
    const member = await findMemberOrThrow(tx, input.id);
    if (member.role === input.role) return { member: presentMember(member) };
    const updated = await tx.member.update({ where: { id: member.id }, data: { role: input.role } });
    await recordAudit(
      auditByOf(actor),
      { action: 'member.role_changed', targetKind: 'member', targetId: member.id, details: { from: member.role, to: input.role }, ip },
      tx,
    );
    return { member: presentMember(updated) };
  });
}

export async function deactivateMember(actor: AuthenticatedActor, id: string, ip: string | null) {
  if (id === actor.member.id) throw appError('governance.self_target');
  return db().$transaction(async (tx) => {
    await refuseRemovingLastAdmin(tx, id);
    const member = await findMemberOrThrow(tx, id);
    if (member.status === 'suspended') {
      return { member: presentMember(member), effects: { sessionsRevoked: 0, mailboxesPaused: 0, workflowsUnpublished: 0 } };
    }
    const updated = await tx.member.update({ where: { id }, data: { status: 'suspended' } });
    const sessionsRevoked = await revokeSessions(id, {}, tx);
    // Mailboxes and workflows arrive with later domains; until then there is nothing to pause or unpublish.
    const effects = { sessionsRevoked, mailboxesPaused: 0, workflowsUnpublished: 0 };
    await recordAudit(auditByOf(actor), { action: 'member.deactivated', targetKind: 'member', targetId: id, details: effects, ip }, tx);
    return { member: presentMember(updated), effects };
  });
}

export async function reactivateMember(actor: AuthenticatedActor, id: string, ip: string | null) {
  return db().$transaction(async (tx) => {
    const member = await findMemberOrThrow(tx, id);
    if (member.status === 'active') return { member: presentMember(member) };
    const updated = await tx.member.update({ where: { id }, data: { status: 'active' } });
    await recordAudit(auditByOf(actor), { action: 'member.reactivated', targetKind: 'member', targetId: id, ip }, tx);
    return { member: presentMember(updated) };
  });
}
