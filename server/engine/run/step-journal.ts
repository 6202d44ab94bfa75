/**
 * The steps of a run as its advancer holds them for one lease (issue 25 §1). The advancer reads the
 * run's steps once when it takes the lease and from then on keeps them here, in memory, as it writes
 * them: the next step is planned from this list, not from a fresh read per step. Nobody else changes a
 * run's steps while it is leased, except a decision or a cancel, and both bump the run's `wake_seq`
 * (lease.ts), so the advancer reads again when it releases.
 *
 * **Held steps.** A first attempt of a node with no outside effect is not written when it ends: its row
 * is held here and created with the next write that must be durable (an attempt of a node with an
 * effect, a suspension, the run's end, the lease's release), several steps in one statement of that
 * transaction, guarded by the lease (step-rows.ts `flushHeldSteps`). A runner that dies meanwhile
 * loses only work that has no effect outside the run, which the next advancer does again; a run
 * cancelled meanwhile never shows those steps (no step starts after a cancel).
 *
 * **Held ends.** The success of a step whose row exists (an attempt of a node with an outside effect, written when
 * it started) is held too, as an update of that row, but only until the next step starts (run-step.ts writes it
 * then, or with that step's own first write): in the common case, a run whose last step has the effect, it is
 * written by the run's closing statement, one durable commit instead of two. A runner that dies before that write
 * leaves the step as one cut off mid-attempt, exactly as if it had died before the success's own write would have
 * committed: the window between the effect and the durable record is the same round trip. Unlike a held row, a held
 * end is written even when the run is no longer this advance's (a cancel during the call): its effect happened.
 * Pure: no database here.
 */
export interface StepRow {
  id: string;
  nodeId: string;
  status: string;
  attempt: number;
  output: string | null;
  data: unknown;
  state: unknown;
  /** A decision for the step (an approval's, a reply that ended a wait; null when none came). */
  decision?: unknown;
  attempts: unknown;
  effects: unknown;
  attemptStartedAt: Date | null;
  nextAttemptAt: Date | null;
  startedAt: Date | null;
}

/** A step row not written yet, with the columns its INSERT sets, or a held end (step-rows.ts `flushHeldSteps`). */
export interface HeldStep {
  id: string;
  nodeId: string;
  nodeType: string;
  status: string;
  attempt: number;
  seq: number;
  input?: unknown;
  output?: string | null;
  data?: unknown;
  dataTruncated?: boolean;
  durationMs?: number | null;
  effects?: unknown;
  warnings?: string[];
  loop?: unknown;
  pinned?: boolean;
  disabled?: boolean;
  startedAt?: Date | null;
  finishedAt?: Date | null;
  /** Whether the member's browsers hear of it (`execution.step`) when it is written. */
  announce: boolean;
  /** The success of a step whose row exists: an UPDATE of that row (step-rows.ts `heldWrites`), not an INSERT. */
  ended?: boolean;
}

export interface StepJournal {
  /** The advance holding the lease: held steps are written only while it still holds a running run. */
  owner: string;
  /** The run's steps in `seq` order, held ones included. */
  steps: StepRow[];
  held: HeldStep[];
  /** When the lease's working time began (ms since the epoch): the run's end adds it to `working_ms` as it gives the lease back. */
  workingSince: number;
  /** The run's end gave the lease back in its own statement (finish.ts): the advance has none to release. */
  leaseReleased?: boolean;
}

export function openJournal(owner: string, steps: StepRow[], workingSince: number): StepJournal {
  return { owner, steps, held: [], workingSince };
}

/** The fields of a step write the advancer reads back (StepRow), as the database would answer them. */
export interface RememberedWrite {
  status?: unknown;
  attempt?: unknown;
  output?: unknown;
  data?: unknown;
  state?: unknown;
  attempts?: unknown;
  effects?: unknown;
  attemptStartedAt?: unknown;
  nextAttemptAt?: unknown;
}

/** Prisma's null markers for JSON columns read back as null. */
function plain(value: unknown): unknown {
  return value !== null && typeof value === 'object' && Object.getPrototypeOf(value) !== Object.prototype && !Array.isArray(value) && !(value instanceof Date) ? null : value;
}

/** Records a write of step `ref` (node `nodeId`) in the journal's list: created the first time, merged after. */
export function remember(journal: StepJournal, ref: { id: string; attempt: number; startedAt: Date | null }, nodeId: string, write: RememberedWrite): void {
  let row = journal.steps.find((step) => step.id === ref.id);
  if (!row) {
    row = { id: ref.id, nodeId, status: 'queued', attempt: ref.attempt, output: null, data: null, state: null, decision: null, attempts: [], effects: [], attemptStartedAt: null, nextAttemptAt: null, startedAt: ref.startedAt };
    journal.steps.push(row);
  }
  if (write.status !== undefined) row.status = write.status as string;
  if (write.attempt !== undefined) row.attempt = write.attempt as number;
  if (write.output !== undefined) row.output = write.output as string | null;
  if (write.data !== undefined) row.data = plain(write.data);
  if (write.state !== undefined) row.state = plain(write.state);
  if (write.attempts !== undefined) row.attempts = write.attempts;
  if (write.effects !== undefined) row.effects = write.effects;
  if (write.attemptStartedAt !== undefined) row.attemptStartedAt = write.attemptStartedAt as Date | null;
  if (write.nextAttemptAt !== undefined) row.nextAttemptAt = write.nextAttemptAt as Date | null;
}

/** Whether the step was cut off by a crash and has not ended since (its last attempt is an interrupted one). */
export function cutOff(step: Pick<StepRow, 'attempts'> | null | undefined): boolean {
  const last = Array.isArray(step?.attempts) ? (step.attempts as { interrupted?: boolean }[]).at(-1) : undefined;
  return last?.interrupted === true;
}

/** Whether the advance leaves a step cut off by a crash still waiting for its retry (its run's crash streak goes on, interruptions.ts). */
export function leavesCutOffStep(journal: StepJournal): boolean {
  return journal.steps.some((step) => step.status === 'running' && cutOff(step));
}
