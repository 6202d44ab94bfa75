/**
 * The blast-radius guard's rules as pure decisions: which rules an item is subject to, and whether the
 * counts gathered for it (server/domains/send-guard/repo.ts) trip one. Table-tested in rules.test.ts.
 *
 * - `mailbox_hourly_cap`: sends of the mailbox (any origin) in the last hour ≥ the instance cap;
 * - `workflow_hourly_cap`: sends of the item's workflow in the last hour ≥ its cap (the workflow's
 *   `sendCapPerHour`, never above the instance's);
 * - `auto_reply_loop`: a workflow's reply to an auto-reply whose sender already got ≥ N automated
 *   sends from the mailbox within the loop window;
 * - `repeat_recipient`: ≥ N sends of the workflow to one of the item's recipients within an hour.
 *
 * A member's own webmail send (origin webmail, no review) and an item a human already reviewed
 * (`sent`) are subject to the mailbox cap only. An item released from a hold skips the rule that
 * tripped that hold.
 */

export const holdReasons = ['mailbox_hourly_cap', 'workflow_hourly_cap', 'auto_reply_loop', 'repeat_recipient'] as const;
export type HoldReason = (typeof holdReasons)[number];

/** The scope a hold of each reason covers: every send of the mailbox, or every send of the workflow. */
export function scopeOf(reason: HoldReason, hasWorkflow: boolean): 'mailbox' | 'workflow' {
  if (reason === 'mailbox_hourly_cap') return 'mailbox';
  return hasWorkflow ? 'workflow' : 'mailbox';
}

export interface GuardLimits {
  mailboxPerHour: number;
  workflowPerHour: number;
  loopWindowMinutes: number;
  loopMaxSends: number;
  repeatMaxSends: number;
}

/** What the rules need to know about the item itself. */
export interface GuardItem {
  origin: string;
  reviewStatus: string;
  workflowId: string | null;
  relation: string | null;
}

/** Reasons of holds scoped to a workflow (all its automated sends are kept while one is open). */
export const workflowHoldReasons: HoldReason[] = ['workflow_hourly_cap', 'auto_reply_loop', 'repeat_recipient'];

/** The member's own webmail send, or an item a human reviewed and sent: only the mailbox cap applies. */
export function isHumanSend(item: Pick<GuardItem, 'origin' | 'reviewStatus'>): boolean {
  return (item.origin === 'webmail' && item.reviewStatus === 'none') || item.reviewStatus === 'sent';
}

/** The rules an item is subject to, less those of holds it was released from. */
export function applicableRules(item: GuardItem, releasedFrom: ReadonlySet<string> = new Set()): HoldReason[] {
  const rules: HoldReason[] = ['mailbox_hourly_cap'];
  if (!isHumanSend(item) && item.workflowId) {
    rules.push('workflow_hourly_cap');
    if (item.origin === 'workflow' && (item.relation === 'reply' || item.relation === 'replyAll')) rules.push('auto_reply_loop');
    rules.push('repeat_recipient');
  }
  return rules.filter((rule) => !releasedFrom.has(rule));
}

/** The workflow's own cap: its `sendCapPerHour` setting when it is a positive integer below the instance's. */
export function workflowCap(settings: unknown, instanceCap: number): number {
  const own = settings && typeof settings === 'object' && !Array.isArray(settings) ? (settings as Record<string, unknown>).sendCapPerHour : undefined;
  return typeof own === 'number' && Number.isInteger(own) && own > 0 ? Math.min(own, instanceCap) : instanceCap;
}

/** Counts gathered for the applicable rules (a rule not applicable has no count). */
export interface GuardFacts {
  mailboxSends?: number;
  workflowSends?: number;
  /** The cap of this workflow (its setting or the instance's). */
  workflowCap?: number;
  /** Set when the answered message carries the auto-reply signal. */
  loop?: { counterpart: string; sends: number };
  /** The recipient of the item the workflow sent to most in the last hour. */
  repeat?: { recipient: string; sends: number };
}

export interface Trip {
  reason: HoldReason;
  details: Record<string, string | number>;
}

/** The first rule the facts trip, in the order of `applicableRules`, or null: the item may go. */
export function decideTrip(rules: readonly HoldReason[], facts: GuardFacts, limits: GuardLimits): Trip | null {
  for (const rule of rules) {
    switch (rule) {
      case 'mailbox_hourly_cap':
        if (facts.mailboxSends !== undefined && facts.mailboxSends >= limits.mailboxPerHour) {
          return { reason: rule, details: { sends: facts.mailboxSends, limit: limits.mailboxPerHour, windowMinutes: 60 } };
        }
        break;
      case 'workflow_hourly_cap': {
        const cap = facts.workflowCap ?? limits.workflowPerHour;
        if (facts.workflowSends !== undefined && facts.workflowSends >= cap) {
          return { reason: rule, details: { sends: facts.workflowSends, limit: cap, windowMinutes: 60 } };
        }
        break;
      }
      case 'auto_reply_loop':
        if (facts.loop && facts.loop.sends >= limits.loopMaxSends) {
          return { reason: rule, details: { counterpart: facts.loop.counterpart, sends: facts.loop.sends, limit: limits.loopMaxSends, windowMinutes: limits.loopWindowMinutes } };
        }
        break;
      case 'repeat_recipient':
        if (facts.repeat && facts.repeat.sends >= limits.repeatMaxSends) {
          return { reason: rule, details: { recipient: facts.repeat.recipient, sends: facts.repeat.sends, limit: limits.repeatMaxSends, windowMinutes: 60 } };
        }
        break;
    }
  }
  return null;
}

/** The bare address of a recipient written `Name <a@b>` or `a@b`, lower-case. */
export function bareAddress(recipient: string): string {
  const angle = /<([^<>]*)>\s*$/.exec(recipient);
  return (angle ? angle[1] : recipient).trim().toLowerCase();
}
