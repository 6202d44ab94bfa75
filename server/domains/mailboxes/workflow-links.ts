/**
 * The seam between a mailbox and the workflows that use it (workflows whose trigger watches the
 * mailbox: `trigger`; workflows that act on or send from it: `sender`), answered by the workflows
 * domain from the trigger facts of published versions. The removal-impact, disconnect and delete
 * answers and the `mailbox.removed` notification carry these figures.
 */
import type { Tx } from '../../core/db';
import { disarmMailboxWorkflows, mailboxWorkflowFootprint } from '../workflows';

export interface LinkedWorkflow {
  id: string;
  name: string;
  link: 'trigger' | 'sender';
}

export interface WorkflowFootprint {
  workflows: LinkedWorkflow[];
  /** Executions of those workflows not finished yet (queued, running, waiting). */
  pendingExecutions: number;
}

/** The member's published workflows linked to a mailbox and their unfinished executions. */
export function workflowFootprint(mailboxId: string, tx?: Tx): Promise<WorkflowFootprint> {
  return mailboxWorkflowFootprint(mailboxId, tx);
}

/**
 * Disarms the workflows linked to a mailbox that is going away (disconnect, delete, member
 * deactivation), in the caller's transaction: those whose trigger watches only this mailbox, or that
 * act on or send from it, are unpublished. Returns how many were disarmed and unpublished.
 */
export function disarmWorkflows(mailboxId: string, tx: Tx): Promise<{ disarmed: number; unpublished: number }> {
  return disarmMailboxWorkflows(mailboxId, tx);
}
