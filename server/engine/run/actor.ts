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
 * steps does not read the same row before each one.
 */
const readAgainAfterMs = 5_000;
const readFor = new WeakMap<object, { actor: ExecutionActor; at: number }>();

export async function executionActor(execution: { id: string; memberId: string }): Promise<ExecutionActor> {
  const kept = readFor.get(execution);
  if (kept && Date.now() - kept.at < readAgainAfterMs) return kept.actor;
  const actor = await readActor(execution);
  readFor.set(execution, { actor, at: Date.now() });
  return actor;
}

async function readActor(execution: { id: string; memberId: string }): Promise<ExecutionActor> {
  // On the pool directly and prepared: read once per run at least (issue 25 §1).
  const { rows } = await pool().query<{ id: string; email: string; name: string; role: 'admin' | 'member'; status: string; createdAt: Date }>({
    ...prepared(`SELECT id, email, name, role::text AS role, status::text AS status, created_at AS "createdAt" FROM members WHERE id = $1::uuid`),
    values: [execution.memberId],
  });
  const member = rows[0];
  if (member?.status !== 'active') throw fail.permanent('credential_missing', { message: 'The member this workflow runs for is no longer active.' });
  return { kind: 'execution', executionId: execution.id, member: { id: member.id, email: member.email, name: member.name, role: member.role, createdAt: member.createdAt } };
}
