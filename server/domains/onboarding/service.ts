/**
 * The "Get started" list of the home page (issue 19 §7): which first steps a member has done, read
 * from what exists rather than stored, so the list ticks itself whatever screen or API did the step.
 */
import type { MemberIdentity } from '../../core/auth/access';
import { db } from '../../core/db';
import type { OnboardingOutput } from './schemas';

interface FactsRow {
  mailbox: boolean;
  evaluation: boolean;
  published: boolean;
  invitation: boolean;
}

/** One statement of four EXISTS probes, each stopping at its first row (indexed by member). */
async function readFacts(memberId: string): Promise<FactsRow> {
  const rows = await db().$queryRaw<FactsRow[]>`
    SELECT EXISTS (SELECT 1 FROM mailboxes WHERE member_id = ${memberId}::uuid) AS mailbox,
           EXISTS (SELECT 1 FROM eval_runs WHERE member_id = ${memberId}::uuid) AS evaluation,
           EXISTS (SELECT 1 FROM workflows WHERE member_id = ${memberId}::uuid AND published_version_id IS NOT NULL) AS published,
           EXISTS (SELECT 1 FROM invitations) AS invitation`;
  return rows[0];
}

export async function onboardingOf(member: Pick<MemberIdentity, 'id' | 'role'>): Promise<OnboardingOutput> {
  const facts = await readFacts(member.id);
  // Inviting is an administrator's step: a member is not asked to do what they may not do.
  const teamInvited = member.role === 'admin' ? facts.invitation : null;
  const steps = [facts.mailbox, facts.evaluation, facts.published, ...(teamInvited === null ? [] : [teamInvited])];
  return {
    mailboxConnected: facts.mailbox,
    templateTried: facts.evaluation,
    workflowPublished: facts.published,
    teamInvited,
    complete: steps.every(Boolean),
  };
}
