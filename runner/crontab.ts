/**
 * Recurring jobs. graphile-worker schedules each one once per matching minute across all runner
 * processes (it records the last run in its `known_crontabs` table), so several runners do not
 * multiply them. No backfill: a purge missed while the runner was down is covered by the next one.
 */
import { parseCronItems, type CronItem } from 'graphile-worker';
import { housekeepingTaskNames as tasks } from '../server/core/jobs/housekeeping-jobs';

export const cronItems: CronItem[] = [
  // Written on every request, so the table grows fastest.
  { task: tasks.purgeRateLimitBuckets, match: '* * * * *' },
  { task: tasks.purgeIdempotencyRecords, match: '*/5 * * * *' },
  { task: tasks.purgeSessions, match: '*/5 * * * *' },
  { task: tasks.purgeInvitations, match: '*/5 * * * *' },
  { task: tasks.purgeTableWriteEffects, match: '17 * * * *' },
  { task: tasks.resealSecrets, match: '41 * * * *' },
  { task: tasks.purgeArchivedNotifications, match: '23 3 * * *' },
  { task: tasks.purgeOAuthFlows, match: '*/15 * * * *' },
  { task: tasks.purgeUploadedAttachments, match: '23 * * * *' },
  { task: tasks.purgeWebhookDeliveries, match: '37 * * * *' },
  { task: tasks.purgeOutboundContent, match: '47 * * * *' },
  { task: tasks.workflowSchedules, match: '* * * * *' },
  { task: tasks.sweepAssistantTurns, match: '* * * * *' },
  { task: tasks.mailWatchdog, match: '* * * * *' },
  // The dashboard's rollups against their raw rows: the last 48 hours every 10 minutes (what is being written),
  // the whole history once a day (a restore, a load with triggers off). Two entries of one task: distinct identifiers.
  { task: tasks.dashboardReconcile, match: '*/10 * * * *' },
  { task: tasks.dashboardReconcile, identifier: 'dashboard-reconcile-history', match: '43 2 * * *', payload: { history: true } },
  // A run's end appends its dashboard increment; folded every minute so the reads' pending part stays a minute's.
  { task: tasks.dashboardFold, match: '* * * * *' },
  // The support sync's interval, a no-op when the instance is not linked (server/domains/support/sync/job.ts).
  { task: tasks.supportSyncInterval, match: '* * * * *' },
].map((item) => ({ ...item, options: { backfillPeriod: 0, maxAttempts: 3 } }));

export const parsedCronItems = parseCronItems(cronItems);
