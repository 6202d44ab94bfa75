/**
 * A run as a runner leaves it: `running`, its webhook trigger step (`start`) succeeded, and a lease
 * (by default a dead runner's, expired a second ago, so the next claim is a take-over). Tests add the
 * steps the runner had written before it stopped.
 */
import { db } from '../../../server/core/db';

export interface LeftRunning {
  memberId: string;
  workflowId: string;
  workflowVersionId: string;
  /** The lease as left: `null` for none (a runner about to claim it). Default: a dead runner's, expired. */
  lease?: { owner: string; until: Date } | null;
  /** Take-overs counted before (`lease_takeovers`). */
  takeovers?: number;
}

export async function leftRunning(left: LeftRunning) {
  const lease = left.lease === undefined ? { owner: 'dead-runner', until: new Date(Date.now() - 1_000) } : left.lease;
  const execution = await db().execution.create({
    data: {
      memberId: left.memberId,
      workflowId: left.workflowId,
      workflowVersionId: left.workflowVersionId,
      status: 'running',
      triggerType: 'webhook',
      triggerNodeId: 'start',
      triggerData: {},
      timeoutMs: 3_600_000,
      startedAt: new Date(),
      leaseOwner: lease?.owner ?? null,
      leaseUntil: lease?.until ?? null,
      leaseTakeovers: left.takeovers ?? 0,
    },
  });
  await db().executionStep.create({ data: { executionId: execution.id, nodeId: 'start', nodeType: 'trigger.webhook', status: 'succeeded', output: 'main', data: {}, seq: 0, attempt: 1 } });
  return execution;
}
