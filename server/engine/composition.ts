/**
 * What the engine is handed at start-up instead of importing the domains (n8n's lifecycle hooks are the
 * model): the factory of the capabilities its executors receive, the run-end hooks, what a run's end
 * triggers in other domains, and the reads of the mail dispatcher (the sender's address book card). The composition root (server/engine-adapters/compose.ts `composeEngine`)
 * fills it in every process that runs the engine: the runner, the web process (cancels) and the tests'
 * harnesses. An engine nobody composed refuses to run a step or end a run ("engine not composed")
 * rather than silently skip an approval's expiry or a notification.
 *
 * Hooks run where the engine called the domain before: in the same transaction, at the same point,
 * in the order they are listed. Reading the composition is a variable read: no query, no cost per step.
 */
import type { ExecutionActor } from '../core/auth/access';
import type { Tx } from '../core/db';
import type { Capabilities, ContactCard } from './contract/capabilities';

/** The step a capability set serves. */
export interface CapabilityRun {
  /** The run, acting for its member (server/engine/run/actor.ts). */
  actor: ExecutionActor;
  simulated: boolean;
  /** The engine's prefix for this step's effect keys (`<executionId>:<nodeId>`). */
  effectKeyPrefix: string;
  /** For the `ai` capability's usage records. */
  workflowId?: string | null;
  stepId?: string | null;
  /** A simulated run that asked for real model calls (default false). */
  callModels?: boolean;
}

export type CapabilityFactory = (run: CapabilityRun) => Capabilities;

/** A run that failed (not a test run, not inside a loop), as its incident recorded it. */
export interface RunFailure {
  executionId: string;
  memberId: string;
  workflowId: string;
  workflowName: string;
  /** The incident's anonymised summary of the error. */
  errorSummary: string;
}

export interface RunEndHooks {
  /** A run closed (succeeded or failed), in the closing transaction, before its slot is freed. */
  runClosed: ((tx: Tx, executionId: string) => Promise<void>)[];
  /** A live run failed: after its incident is recorded, before its error workflow starts, in that transaction. */
  runFailed: ((tx: Tx, failure: RunFailure) => Promise<void>)[];
  /** Runs were cancelled (the requested ones and the runs they called), in the cancelling transaction. */
  runsCancelled: ((tx: Tx, executionIds: string[]) => Promise<void>)[];
}

/**
 * Reads the engine makes of the domains outside a step (a step reads through its capabilities): what
 * the mail dispatcher puts in a run's trigger data besides the message.
 */
export interface EngineReads {
  /**
   * The sender's resolved address book entry for the member, from the mailbox's point of view
   * (`trigger.contact`), read in the dispatcher's transaction; null when the message has no sender.
   */
  senderContact: (tx: Tx, input: { memberId: string; mailboxId: string; address: string | null }) => Promise<ContactCard | null>;
}

export interface EngineComposition {
  capabilities: CapabilityFactory;
  hooks: RunEndHooks;
  reads: EngineReads;
}

let composed: EngineComposition | null = null;

/** Called by the composition root only (server/engine-adapters/compose.ts). */
export function composeEngineWith(composition: EngineComposition): void {
  composed = composition;
}

/** The engine's composition; throws when nobody composed the engine in this process. */
export function engineComposition(): EngineComposition {
  if (composed === null) throw new Error('engine not composed: call composeEngine() (server/engine-adapters/compose.ts) at start-up');
  return composed;
}

/** Runs one list of hooks in order, each awaited before the next (the order the calls had inline). */
export async function runHooks<A extends unknown[]>(hooks: readonly ((...args: A) => Promise<void>)[], ...args: A): Promise<void> {
  for (const hook of hooks) await hook(...args);
}
