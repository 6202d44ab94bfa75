/**
 * Execution engine limits (spec, Limits): simultaneous live runs per workflow (instance default 10,
 * overridable; all workflows together capped at 100), maximum run duration (default one hour,
 * ceiling 24 hours, minimum one minute; working time only), attempt timeout, attempts and delays.
 */
import { config } from '../../core/config';

export const engineBounds = {
  attemptTimeoutMs: { min: 5_000, max: 1_800_000 },
  attempts: { min: 1, max: 10 },
  retryDelayMs: { min: 1_000, max: 3_600_000 },
  /** Delays double up to this. */
  maxBackoffMs: 15 * 60_000,
  /** In a test run every delay is cut to this. */
  testRunDelayMs: 2_000,
  runTimeoutMs: { min: 60_000, default: 3_600_000, max: 24 * 3_600_000 },
  /** The longest a wait node (or an approval) may hold a run. */
  waitMs: { max: 30 * 24 * 3_600_000 },
} as const;

/**
 * What an AI node reads of the triggering message's attachments (`attachments: pdf_and_text`): three
 * attachments, a PDF of at most 2 MB and its first 20 pages, 32 KB of text each (96 KB in all, so the
 * prompt the step keeps stays well within its 256 KB of data).
 */
export const attachmentTextBounds = { attachments: 3, pdfBytes: 2 * 1024 * 1024, pdfPages: 20, textBytes: 32 * 1024 } as const;

/** Built-in retry defaults (spec: 3 attempts, 5 s delay, 2 min per attempt). */
export const builtInRetry = { maxAttempts: 3, delayMs: 5_000, timeoutMs: 120_000 } as const;

export interface InstanceCeilings {
  maxConcurrency: number;
  executionTimeoutMs: number;
  waitMs: number;
  /** All workflows together. */
  instanceConcurrency: number;
}

export function instanceCeilings(): InstanceCeilings {
  const settings = config();
  return {
    maxConcurrency: settings.WORKFLOW_MAX_CONCURRENCY,
    executionTimeoutMs: engineBounds.runTimeoutMs.max,
    waitMs: engineBounds.waitMs.max,
    instanceConcurrency: settings.INSTANCE_MAX_CONCURRENCY,
  };
}

export function effectiveLimits(workflow: { maxConcurrency: number | null; executionTimeoutMs: number | null }) {
  const settings = config();
  return {
    maxConcurrency: workflow.maxConcurrency ?? settings.WORKFLOW_DEFAULT_CONCURRENCY,
    executionTimeoutMs: workflow.executionTimeoutMs ?? engineBounds.runTimeoutMs.default,
    waitMs: engineBounds.waitMs.max,
  };
}

/** The `executionLimits` object of a workflow (spec: effective values and instance ceilings). */
export function executionLimitsOf(workflow: { maxConcurrency: number | null; executionTimeoutMs: number | null }) {
  const ceilings = instanceCeilings();
  const effective = effectiveLimits(workflow);
  return {
    maxConcurrency: { effective: effective.maxConcurrency, ceiling: ceilings.maxConcurrency, instanceTotal: ceilings.instanceConcurrency },
    executionTimeoutMs: { effective: effective.executionTimeoutMs, ceiling: ceilings.executionTimeoutMs, minimum: engineBounds.runTimeoutMs.min },
    waitMs: { effective: effective.waitMs, ceiling: ceilings.waitMs },
  };
}
