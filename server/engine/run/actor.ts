/**
 * The actor a run acts as: its member, with the member's rights and nothing more (API keys' scopes
 * only narrow; a run has none to narrow with). A member who is no longer active cannot act: the step
 * fails permanently rather than acting for someone the team switched off.
 */
import type { ExecutionActor } from '../../core/auth/access';
import { pool } from '../../core/db';
import { prepared } from '../../core/db/prepared';
import { fail } from '../contract/failures';

/**
 * The member is read again at most every few seconds per advance (keyed by the claimed execution object,
 * which lives for one lease): a member switched off stops acting within that time, and a run of many
 * steps does not read the same row before each one. The claim reads it first, in its own statement
 * (lease.ts `rememberMember`): a run whose steps end within a few seconds never reads it apart.
 */
const readAgainAfterMs = 5_000;
const readFor = new WeakMap<object, { member: MemberRow | null; at: number }>();

/** The columns of the member a run acts as, as the claim and readActor read them. */
export interface MemberRow {
  id: string;
  email: string;
  name: string;
  role: 'admin' | 'member';
  status: string;
  createdAt: Date;
}

/** Keeps the member the claim of this execution read (null: no such member), as a read of its own would. */
export function rememberMember(execution: object, member: MemberRow | null): void {
  readFor.set(execution, { member, at: Date.now() });
}

export async function executionActor(execution: { id: string; memberId: string }): Promise<ExecutionActor> {
  let kept = readFor.get(execution);
  if (!kept || Date.now() - kept.at >= readAgainAfterMs) {
    kept = { member: await readMember(execution.memberId), at: Date.now() };
    readFor.set(execution, kept);
  }
  const member = kept.member;
  if (member?.status !== 'active') throw fail.permanent('credential_missing', { message: 'The member this workflow runs for is no longer active.' });
  return { kind: 'execution', executionId: execution.id, member: { id: member.id, email: member.email, name: member.name, role: member.role, createdAt: member.createdAt } };
}

async function readMember(memberId: string): Promise<MemberRow | null> {
  // On the pool directly and prepared: read once per run at least (issue 25 §1).
  const { rows } = await pool().query<MemberRow>({
    ...prepared(`SELECT id, email, name, role::text AS role, status::text AS status, created_at AS "createdAt" FROM members WHERE id = $1::uuid`),
    values: [memberId],
  });
  return rows[0] ?? null;
}
