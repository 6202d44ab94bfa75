/**
 * Contracts of the housekeeping tasks: their names and payload. They are scheduled by the runner's
 * crontab, whose jobs carry only graphile-worker's `_cron` stamp, or queued by the runner at start
 * (empty payload).
 */
import { z } from 'zod';

export const housekeepingTaskNames = {
  purgeIdempotencyRecords: 'purge-idempotency-records',
  purgeSessions: 'purge-sessions',
  purgeRateLimitBuckets: 'purge-rate-limit-buckets',
  purgeInvitations: 'purge-invitations',
  purgeTableWriteEffects: 'purge-table-write-effects',
  /** Key rotation: re-seals secrets sealed under a previous instance key (at start and hourly). */
  resealSecrets: 'reseal-secrets',
  purgeArchivedNotifications: 'purge-archived-notifications',
  purgeOAuthFlows: 'purge-oauth-flows',
  purgeUploadedAttachments: 'purge-uploaded-attachments',
  /** Forgets inbound webhook idempotency keys older than 24 hours. */
  purgeWebhookDeliveries: 'purge-webhook-deliveries',
  /** Drops the content of finished outbound messages past their retention (`review.content_gone` afterwards). */
  purgeOutboundContent: 'purge-outbound-content',
  /** Every minute: starts the runs of schedule triggers that are due. */
  workflowSchedules: 'workflow-schedules',
  /** Every minute: settles assistant turns whose web process died (server/domains/assistant/sweep.ts). */
  sweepAssistantTurns: 'sweep-assistant-turns',
  /** Every minute: marks silent mailboxes stalled and clears recovered ones (runner/mail/watchdog.ts). */
  mailWatchdog: 'mail-watchdog',
  /** Every 10 minutes over the last 48 hours, daily over the whole history: the dashboard's rollups agree with their raw rows (server/domains/dashboard/rollups/reconcile.ts). */
  dashboardReconcile: 'dashboard-reconcile',
  /** Every minute: the runs' pending dashboard increments moved into their rollups (server/domains/dashboard/repo-rollups.ts). */
  dashboardFold: 'dashboard-fold',
  /** Every minute: one exchange with the operator's control plane when linked (server/domains/support/sync/job.ts). */
  supportSyncInterval: 'support-sync-interval',
  /** Queued once at every runner start: gives typed slots to tables written before they existed. */
  backfillTableTypedSlots: 'backfill-table-typed-slots',
} as const;

/** Added by graphile-worker to jobs its cron schedules. */
const cronStamp = z.object({ ts: z.string(), backfilled: z.boolean().optional() });

export const housekeepingPayload = z.strictObject({ _cron: cronStamp.optional() });

export type HousekeepingPayload = z.infer<typeof housekeepingPayload>;

/** `dashboard-reconcile`: `history` (the daily crontab entry) reconciles every hour instead of the last 48. */
export const dashboardReconcilePayload = z.strictObject({ _cron: cronStamp.optional(), history: z.boolean().optional() });
