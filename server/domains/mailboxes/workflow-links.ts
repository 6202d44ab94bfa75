/**
 * The seam between a mailbox and the workflows that use it. Workflows do not exist yet: the engine
 * wires these two functions when it lands (workflows whose trigger watches the mailbox: `trigger`;
 * workflows that send from it: `sender`), and the removal-impact, disconnect and delete answers and
 * the `mailbox.removed` notification then carry real figures with no change to their callers.
 */
import type { Tx } from '../../core/db';

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

/** The workflows linked to a mailbox and their unfinished executions. The engine wires it: none yet. */
export async function workflowFootprint(_mailboxId: string, _tx?: Tx): Promise<WorkflowFootprint> {
  return { workflows: [], pendingExecutions: 0 };
}

/**
 * Disarms the workflows linked to a mailbox that is going away (disconnect, delete, member
 * deactivation), in the caller's transaction; returns how many were disarmed and how many of them
 * were unpublished. The engine wires it: nothing to disarm yet.
 */
export async function disarmWorkflows(_mailboxId: string, _tx: Tx): Promise<{ disarmed: number; unpublished: number }> {
  return { disarmed: 0, unpublished: 0 };
}
