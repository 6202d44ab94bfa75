/**
 * The typed catalogue of jobs queued by domain code and run by the runner: one name, one zod payload.
 * Enqueuers (`./enqueue.ts`) and the runner's task registration (`runner/tasks`) both read it, so a
 * payload can never drift between the two. Housekeeping jobs, scheduled by the crontab, are in
 * `./housekeeping-jobs.ts`.
 */
import { z } from 'zod';

const mailboxId = z.uuid();

export const jobCatalogue = {
  /** Bring a mailbox's mirror up to date (initial sync on first run, delta afterwards). Key `mail-sync:<id>`. */
  'mail.sync': z.strictObject({ mailboxId, reason: z.enum(['connect', 'manual', 'poll', 'watch', 'recover']).default('manual') }),
  /** Re-read a past window without journaling or dispatching anything. Key `mail-resync:<id>`. */
  'mail.resync': z.strictObject({ mailboxId, since: z.iso.datetime() }),
  /** Mirror older mail, in slices, as far back as the member asked. Key `mail-backfill:<id>`. */
  'mail.backfill': z.strictObject({ mailboxId }),
  /** Apply pending webmail operations (mail_operations) of a mailbox to the real mailbox. Key `mail-ops:<id>`. */
  'mail.apply-operations': z.strictObject({ mailboxId }),
  /** A mailbox was disconnected or deleted: release its watcher and lease everywhere. */
  'mail.release': z.strictObject({ mailboxId }),
  /** Advance an execution as far as it can go now (admission, steps, retries, resume). Key `execution:<id>`. */
  'execution.advance': z.strictObject({ executionId: z.uuid() }),
  /** Give new mail of a mailbox (mail_dispatch_queue) its journal entry and start matching workflows. Key `mail-dispatch:<id>`. */
  'mail.dispatch': z.strictObject({ mailboxId }),
  /** Send one outbound message through its mailbox (the send pipeline, server/domains/outbound/send). Key `mail-send:<id>`. */
  'mail.send': z.strictObject({ outboundId: z.uuid() }),
  /** Place a draft item waiting for review in its mailbox's Drafts folder (IMAP). Key `mail-draft:<id>`. */
  'mail.place-draft': z.strictObject({ outboundId: z.uuid() }),
  /** Delete the placed draft of an item sent or rejected through the review. Key `mail-draft:<id>`. */
  'mail.remove-draft': z.strictObject({ outboundId: z.uuid() }),
  /** Drive an evaluation run: start its cases' simulated runs in small batches, record them as they end. Key `eval:<id>`. */
  'eval.run': z.strictObject({ evalRunId: z.uuid() }),
  /** Analyse a mailbox: statistics, sender groups, the model's opportunities (server/domains/analyzer/run/). Key `analyzer:<id>`. */
  'analyzer.run': z.strictObject({ analysisId: z.uuid() }),
  /** Exchange with the operator's control plane now (push the support outbox, pull changes): queued by a member's write. Key `support-sync`. */
  'support.sync': z.strictObject({}),
} as const;

export type JobName = keyof typeof jobCatalogue;
export type JobPayload<Name extends JobName> = z.infer<(typeof jobCatalogue)[Name]>;

export const jobKeys = {
  sync: (id: string) => `mail-sync:${id}`,
  resync: (id: string) => `mail-resync:${id}`,
  backfill: (id: string) => `mail-backfill:${id}`,
  operations: (id: string) => `mail-ops:${id}`,
  execution: (id: string) => `execution:${id}`,
  dispatch: (id: string) => `mail-dispatch:${id}`,
  send: (outboundId: string) => `mail-send:${outboundId}`,
  draft: (outboundId: string) => `mail-draft:${outboundId}`,
  evalRun: (evalRunId: string) => `eval:${evalRunId}`,
  analysis: (analysisId: string) => `analyzer:${analysisId}`,
  /** One pending exchange for the whole instance: a burst of writes makes one job. */
  supportSync: () => 'support-sync',
} as const;
