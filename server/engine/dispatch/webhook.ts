/**
 * Inbound webhook (`POST /hooks/wf/{token}`, served by server/http/webhook-route.ts): the token names
 * a workflow (by its SHA-256, `webhookTokenHash`), the JSON object body becomes the trigger data of a
 * real execution. Refusals never tell a live workflow from a missing one: an unknown token and a
 * workflow that cannot start (archived, not published, paused, not a webhook trigger) are both 404.
 *
 * Beyond the spec, because senders retry and forge:
 * - Signature: when the workflow has a signing secret, `X-Signature: sha256=<hex HMAC-SHA256 of
 *   "<timestamp>.<raw body>">` and `X-Signature-Timestamp` (unix seconds, ±5 minutes) are required;
 *   the comparison is timing-safe.
 * - `Idempotency-Key` (1-200 characters): a repeat within 24 hours answers the first execution. The
 *   delivery row is written with the execution in one transaction; a concurrent repeat loses on the
 *   primary key, its transaction (and execution) rolls back, and it answers the winner's execution.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { tokenHash } from '../../core/auth/tokens';
import { open } from '../../core/crypto/secret-box';
import { db, pool, type Tx } from '../../core/db';
import { prepared } from '../../core/db/prepared';
import { isUniqueViolation } from '../../core/db/sql-state';
import { config } from '../../core/config';
import { appError, busyError } from '../../core/errors/app-error';
import { assertStorableText } from '../../core/http/storable-text';
import { log } from '../../core/log';
import { oneRunAtATimeOf } from '../contract/one-run-at-a-time';
import { effectiveLimits } from '../contract/limits';
import { startExecution, startExecutionAlone } from '../run/start';
import { serialKeyOf } from './serial-key';

/** Body bound of the webhook entry (spec, Limits: webhook trigger body). */
export const webhookBodyBytes = 256 * 1024;
/** How far the signature timestamp may be from now. */
export const signatureWindowSeconds = 300;
/** How long an `Idempotency-Key` is remembered. */
export const webhookDeliveryTtlMs = 24 * 60 * 60 * 1000;

/** The sealing purpose of a workflow's webhook signing secret (`Workflow.webhookSecretEnc`). */
export const webhookSecretPurpose = (workflowId: string) => `webhook-secret:${workflowId}`;

/** The stored lookup hash of a webhook token (`Workflow.webhookTokenHash`). */
export const webhookTokenHashOf = (token: string) => tokenHash(token);

export interface WebhookCall {
  token: string;
  rawBody: Buffer;
  signature: string | null;
  timestamp: string | null;
  idempotencyKey: string | null;
  now?: Date;
  /**
   * Told what the workflow's look-up counted: its queued runs (up to WEBHOOK_MAX_QUEUED or its slots, whichever is
   * more) and its slots. Called before any check that may refuse the call, so a refused call reports its backlog too.
   */
  onBacklog?: (seen: { queued: number; slots: number }) => void;
}

/** The hex HMAC-SHA256 a sender puts in `X-Signature` (after `sha256=`). */
export function webhookSignature(secret: string, timestamp: string, rawBody: Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

function verifySignature(secret: string, call: WebhookCall, now: Date): void {
  if (call.signature === null || call.timestamp === null) throw appError('webhook.signature_required');
  if (!/^\d{1,12}$/.test(call.timestamp) || Math.abs(now.getTime() / 1000 - Number(call.timestamp)) > signatureWindowSeconds) {
    throw appError('webhook.signature_invalid', { details: { reason: 'timestamp' } });
  }
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(call.signature.trim());
  const given = match ? Buffer.from(match[1]!, 'hex') : Buffer.alloc(0);
  const expected = Buffer.from(webhookSignature(secret, call.timestamp, call.rawBody), 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw appError('webhook.signature_invalid', { details: { reason: 'signature' } });
  }
}

function bodyObjectOf(rawBody: Buffer): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw appError('request.bad_request', { message: 'The body is not valid JSON.', details: { reason: 'invalid_json' } });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw appError('request.bad_request', { message: 'The body must be a JSON object.', details: { reason: 'not_an_object' } });
  }
  assertStorableText(parsed, 'body');
  return parsed as Record<string, unknown>;
}

// The workflow a token names with its published version, in one statement (two Prisma look-ups before): every
// webhook call pays it, refused ones too.
// Its queued runs are counted through (workflow_id, status, seq) up to the backlog bound ($2; 0 when off) or the
// workflow's slots ($3 when it sets none), whichever is more: the bound refuses, the slots tell the intake whether the
// engine keeps up (webhook-intake.ts).
const startableWorkflowStatement = prepared(`
  SELECT w.id, w.member_id, w.paused, w.archived_at IS NOT NULL AS archived, w.webhook_secret_enc, w.settings,
         w.max_concurrency, w.execution_timeout_ms, v.id AS version_id, v.trigger_type, v.trigger_node_id,
         (SELECT count(*)::int FROM (SELECT 1 FROM executions q WHERE q.workflow_id = w.id AND q.status = 'queued'
                                      LIMIT greatest($2::int, coalesce(w.max_concurrency, $3::int))) b) AS queued
    FROM workflows w
    LEFT JOIN workflow_versions v ON v.id = w.published_version_id
   WHERE w.webhook_token_hash = $1`);

/** How long a call refused for its workflow's backlog is told to wait (Retry-After). */
const backlogRetryAfterSeconds = 10;

interface StartableRow {
  id: string;
  member_id: string;
  paused: boolean;
  archived: boolean;
  webhook_secret_enc: string | null;
  settings: unknown;
  max_concurrency: number | null;
  execution_timeout_ms: number | null;
  version_id: string | null;
  trigger_type: string | null;
  trigger_node_id: string | null;
  queued: number;
}

async function startableWorkflow(token: string) {
  const { WEBHOOK_MAX_QUEUED: backlogBound, WORKFLOW_DEFAULT_CONCURRENCY: defaultSlots } = config();
  const { rows } = await pool().query<StartableRow>({ ...startableWorkflowStatement, values: [webhookTokenHashOf(token), backlogBound, defaultSlots] });
  const row = rows[0];
  if (!row || row.paused || row.archived || row.version_id === null || row.trigger_type !== 'webhook') throw appError('webhook.not_found');
  const workflow = { id: row.id, memberId: row.member_id, webhookSecretEnc: row.webhook_secret_enc, settings: row.settings };
  const version = { id: row.version_id, triggerNodeId: row.trigger_node_id };
  const limits = effectiveLimits({ maxConcurrency: row.max_concurrency, executionTimeoutMs: row.execution_timeout_ms });
  return {
    workflow,
    version,
    timeoutMs: limits.executionTimeoutMs,
    backlog: { queued: row.queued, slots: limits.maxConcurrency },
    backlogFull: backlogBound > 0 && row.queued >= backlogBound,
  };
}

/**
 * WEBHOOK_MAX_QUEUED: the workflow already has that many runs waiting, so this call starts nothing (503 with
 * Retry-After). Its intake would cost the database more than the engine gets done meanwhile: in the engine bench's
 * burst (bench/README.md) the engine finished 0.3× of its runs per second while calls were accepted unbounded.
 */
function refuseForBacklog(): never {
  throw busyError(backlogRetryAfterSeconds, { reason: 'backlog' });
}

function secretOf(workflow: { id: string; webhookSecretEnc: string | null }): string | null {
  if (!workflow.webhookSecretEnc) return null;
  try {
    return open(workflow.webhookSecretEnc, webhookSecretPurpose(workflow.id));
  } catch {
    // A secret that no longer opens (instance key removed) refuses every call rather than letting unsigned ones in.
    log.warn({ workflowId: workflow.id }, 'webhook secret does not open; refusing signed webhook calls');
    throw appError('webhook.signature_invalid', { details: { reason: 'secret_unavailable' } });
  }
}

/** Checks and starts one webhook call. Returns the execution (the first one for a repeated key). */
export async function receiveWebhook(call: WebhookCall): Promise<{ executionId: string }> {
  const now = call.now ?? new Date();
  const { workflow, version, timeoutMs, backlog, backlogFull } = await startableWorkflow(call.token);
  call.onBacklog?.(backlog);
  const key = call.idempotencyKey;
  if (key !== null && (key.length < 1 || key.length > 200)) throw appError('idempotency.invalid_key');
  const secret = secretOf(workflow);
  if (secret !== null) verifySignature(secret, call, now);
  const data = bodyObjectOf(call.rawBody);
  const cutoff = new Date(now.getTime() - webhookDeliveryTtlMs);
  const deliveryOf = (reader: Pick<Tx, 'webhookDelivery'>, idempotencyKey: string) =>
    reader.webhookDelivery.findUnique({ where: { workflowId_idempotencyKey: { workflowId: workflow.id, idempotencyKey } } });
  if (backlogFull) {
    // Before the key expression (a sandboxed evaluation) and any transaction: a refused call costs one read at most.
    // A repeat of an accepted call still answers its run.
    const earlier = key === null ? null : await deliveryOf(db(), key);
    if (earlier && earlier.createdAt >= cutoff) return { executionId: earlier.executionId };
    refuseForBacklog();
  }
  // Runs one at a time per key: only an expression key applies to a webhook (no conversation, no sender).
  const serialKey = await serialKeyOf(oneRunAtATimeOf(workflow.settings), data);

  const trigger = { type: 'webhook', nodeId: version.triggerNodeId, data };
  // Without a key nothing is read first: the run and its job in one statement.
  if (key === null) {
    const execution = await startExecutionAlone({ memberId: workflow.memberId, workflowId: workflow.id, workflowVersionId: version.id, trigger, timeoutMs, serialKey });
    return { executionId: execution.id };
  }

  const start = () =>
    db().$transaction(async (tx) => {
      // A key older than the window is free again, even before housekeeping removes it.
      await tx.webhookDelivery.deleteMany({ where: { workflowId: workflow.id, idempotencyKey: key, createdAt: { lt: cutoff } } });
      const earlier = await deliveryOf(tx, key);
      if (earlier) return { executionId: earlier.executionId };
      const execution = await startExecution(
        { memberId: workflow.memberId, workflowId: workflow.id, workflowVersionId: version.id, trigger, serialKey, timeoutMs },
        tx,
      );
      await tx.webhookDelivery.create({ data: { workflowId: workflow.id, idempotencyKey: key, executionId: execution.id } });
      return { executionId: execution.id };
    });

  try {
    return await start();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // A concurrent call with the same key committed first: answer its execution.
    const winner = await deliveryOf(db(), key);
    if (winner) return { executionId: winner.executionId };
    throw error;
  }
}

/** Housekeeping: forgets idempotency keys of webhook calls older than 24 hours. */
export async function purgeWebhookDeliveries(now = new Date()): Promise<number> {
  const { count } = await db().webhookDelivery.deleteMany({ where: { createdAt: { lt: new Date(now.getTime() - webhookDeliveryTtlMs) } } });
  return count;
}
