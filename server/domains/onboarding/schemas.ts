import { z } from 'zod';

/** The "Get started" list's facts, each read from server state (see ./service.ts). */
export const onboardingOutput = z
  .object({
    /** The member has a mailbox (whatever its status). */
    mailboxConnected: z.boolean(),
    /** The member has started a "Try on my mail" evaluation. */
    templateTried: z.boolean(),
    /** The member has a published workflow. */
    workflowPublished: z.boolean(),
    /** Administrators only (null for a member): the instance has sent an invitation. */
    teamInvited: z.boolean().nullable(),
    /** Every step offered to this member is done. */
    complete: z.boolean(),
  })
  .meta({ id: 'Onboarding' });

export type OnboardingOutput = z.infer<typeof onboardingOutput>;
