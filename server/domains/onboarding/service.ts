/**
 * The "Get started" list of the home page (issue 19 §7): which first steps a member has done, read
 * from what exists rather than stored, so the list ticks itself whatever screen or API did the step.
 */
import type { MemberIdentity } from '../../core/auth/access';
import { readFacts } from './repo';
import type { OnboardingOutput } from './schemas';

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
