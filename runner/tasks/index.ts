/**
 * Every task the runner executes, listed explicitly (no directory scanning), so the list is typed
 * and a test checks that each `*.task.ts` file is in it.
 */
import type { TaskList } from 'graphile-worker';
import { backfillTableTypedSlotsTask } from './backfill-table-typed-slots.task';
import type { TaskDefinition } from './define-task';
import { purgeArchivedNotificationsTask } from './purge-archived-notifications.task';
import { mailApplyOperationsTask } from './mail-apply-operations.task';
import { mailBackfillTask } from './mail-backfill.task';
import { mailReleaseTask } from './mail-release.task';
import { mailResyncTask } from './mail-resync.task';
import { mailSendTask } from './mail-send.task';
import { mailSyncTask } from './mail-sync.task';
import { purgeIdempotencyRecordsTask } from './purge-idempotency-records.task';
import { purgeInvitationsTask } from './purge-invitations.task';
import { purgeOAuthFlowsTask } from './purge-oauth-flows.task';
import { purgeRateLimitBucketsTask } from './purge-rate-limit-buckets.task';
import { purgeSessionsTask } from './purge-sessions.task';
import { purgeTableWriteEffectsTask } from './purge-table-write-effects.task';
import { resealSecretsTask } from './reseal-secrets.task';
import { purgeUploadedAttachmentsTask } from './purge-uploaded-attachments.task';
import { executionAdvanceTask } from './execution-advance.task';
import { mailDispatchTask } from './mail-dispatch.task';
import { mailPlaceDraftTask } from './mail-place-draft.task';
import { mailRemoveDraftTask } from './mail-remove-draft.task';
import { purgeWebhookDeliveriesTask } from './purge-webhook-deliveries.task';
import { purgeOutboundContentTask } from './purge-outbound-content.task';
import { workflowSchedulesTask } from './workflow-schedules.task';
import { evalRunTask } from './eval-run.task';
import { analyzerRunTask } from './analyzer-run.task';
import { sweepAssistantTurnsTask } from './sweep-assistant-turns.task';
import { mailWatchdogTask } from './mail-watchdog.task';
import { dashboardFoldTask, dashboardReconcileTask } from './dashboard-reconcile.task';
import { supportSyncIntervalTask, supportSyncTask } from './support-sync.task';

export const taskDefinitions: readonly TaskDefinition[] = [
  purgeIdempotencyRecordsTask,
  purgeSessionsTask,
  purgeRateLimitBucketsTask,
  purgeInvitationsTask,
  purgeTableWriteEffectsTask,
  purgeUploadedAttachmentsTask,
  backfillTableTypedSlotsTask,
  resealSecretsTask,
  purgeArchivedNotificationsTask,
  purgeOAuthFlowsTask,
  mailSyncTask,
  mailResyncTask,
  mailBackfillTask,
  mailApplyOperationsTask,
  mailReleaseTask,
  mailDispatchTask,
  mailSendTask,
  executionAdvanceTask,
  purgeWebhookDeliveriesTask,
  purgeOutboundContentTask,
  workflowSchedulesTask,
  mailPlaceDraftTask,
  mailRemoveDraftTask,
  evalRunTask,
  analyzerRunTask,
  sweepAssistantTurnsTask,
  mailWatchdogTask,
  dashboardReconcileTask,
  dashboardFoldTask,
  supportSyncTask,
  supportSyncIntervalTask,
];

export const taskList: TaskList = Object.fromEntries(taskDefinitions.map((definition) => [definition.name, definition.task]));
