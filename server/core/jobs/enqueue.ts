/**
 * Jobs are added in the database transaction of the change that needs them (graphile-worker's
 * `add_job` SQL function), so a commit never exists without its job, nor a job without its commit.
 * Payloads are checked against the catalogue's zod schema before they are written.
 */
import type { z } from 'zod';
import { db, type Tx } from '../db';
import { jobCatalogue, type JobName } from './catalogue';

type Runner = Pick<Tx, '$executeRaw'>;

export interface EnqueueOptions {
  /** Deduplicates pending jobs: a second add with the same key replaces (or, with `preserve_run_at`, keeps) the first. */
  jobKey?: string;
  /** `replace` (default: payload and run time replaced), `preserve_run_at` (debounce keeps the first time), `unsafe_dedupe` (keep the pending job as is). */
  jobKeyMode?: 'replace' | 'preserve_run_at' | 'unsafe_dedupe';
  runAt?: Date;
  maxAttempts?: number;
  /** Jobs of one queue run one at a time, in order. */
  queueName?: string;
  priority?: number;
}

export async function enqueue<Name extends JobName>(
  name: Name,
  payload: z.input<(typeof jobCatalogue)[Name]>,
  options: EnqueueOptions = {},
  tx: Runner = db(),
): Promise<void> {
  const checked: unknown = jobCatalogue[name].parse(payload);
  await tx.$executeRaw`SELECT graphile_worker.add_job(
    identifier => ${name}::text,
    payload => ${JSON.stringify(checked)}::json,
    queue_name => ${options.queueName ?? null}::text,
    run_at => ${options.runAt ?? null}::timestamptz,
    max_attempts => ${options.maxAttempts ?? null}::int,
    job_key => ${options.jobKey ?? null}::text,
    priority => ${options.priority ?? null}::int,
    job_key_mode => ${options.jobKey ? (options.jobKeyMode ?? 'replace') : null}::text
  )`;
}

/** Whether a job with this key is waiting to run (not locked by a worker yet). */
export async function jobPending(jobKey: string, tx: Pick<Tx, '$queryRaw'> = db()): Promise<boolean> {
  const rows = await tx.$queryRaw<{ pending: boolean }[]>`
    SELECT EXISTS (SELECT 1 FROM graphile_worker.jobs WHERE key = ${jobKey} AND locked_at IS NULL) AS pending`;
  return rows[0]?.pending ?? false;
}
