/**
 * Test runs (spec: `simulated: true`): the draft graph as it is now, frozen into a version snapshot
 * with no number, started with a pinned or chosen test message or given trigger data. External
 * effects are simulated by the engine; test runs hold no slot (start.ts decides), so they count under
 * the member's cap on live runs holding no slot: beyond it a test run is refused (409).
 */
import { randomUUID } from 'node:crypto';
import type { AuthenticatedActor } from '../../core/auth/access';
import { db } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { forbiddenNodeTypesFor, mailTriggerDataOf, roomForSlotlessRuns, slotlessRunLimit, startExecution, triggerFactsOf } from '../../engine';
import { assertGraphScopes, needFor } from './graph-scopes';
import { draftOf } from './present';
import * as repo from './repo';
import { insertVersion } from './repo-versions';
import { assertValidGraph } from './service';

/** Spec, Limits: the trigger data of a test run. */
export const maxTriggerDataBytes = 256 * 1024;

export interface TestRunInput {
  id: string;
  messageId?: string;
  triggerData?: Record<string, unknown>;
  upToNodeId?: string;
  /** AI nodes call their model for real (default false: pinned or simulated output). */
  callModels?: boolean;
}

export async function startTestRun(actor: AuthenticatedActor, input: TestRunInput) {
  if (input.triggerData !== undefined && Buffer.byteLength(JSON.stringify(input.triggerData)) > maxTriggerDataBytes) {
    throw appError('workflow.trigger_data_too_large', { details: { maxBytes: maxTriggerDataBytes } });
  }
  return db().$transaction(async (tx) => {
    const workflow = await repo.findOwnedOrThrow(actor.member.id, input.id, tx);
    const draft = draftOf(workflow);
    assertValidGraph(draft, forbiddenNodeTypesFor(actor.member.role));
    if (input.upToNodeId !== undefined && !draft.nodes.some((node) => node.id === input.upToNodeId)) {
      throw appError('workflow.invalid_graph', { details: { issues: [{ path: 'upToNodeId', message: `No node "${input.upToNodeId}" in the draft.` }] } });
    }
    const message = input.messageId
      ? await repo.findMemberMessage(actor.member.id, input.messageId, tx)
      : null;
    if (input.messageId && !message) throw appError('workflow.test_message_not_found', { details: { messageIds: [input.messageId] } });
    // A test run on a mirrored message puts that message in the run's trigger data: messages:read, whatever the trigger.
    await assertGraphScopes(actor, draft, tx, message ? [needFor('messages:read', 'test_message')] : []);
    // A test run holds no slot: it counts under the member's cap on such runs, checked under the
    // member's start lock (held to the end of this transaction, where the run is created).
    if (!(await roomForSlotlessRuns(tx, actor.member.id))) throw appError('workflow.run_limit_reached', { details: { limit: slotlessRunLimit() } });
    const facts = triggerFactsOf(draft);
    const versionId = randomUUID();
    await insertVersion(
      {
        id: versionId,
        workflowId: workflow.id,
        number: null,
        graph: { ...draft, id: versionId, workflowId: workflow.id, ...(input.upToNodeId !== undefined && { runUntil: input.upToNodeId }) } as object,
        note: 'test run',
        ...facts,
        createdBy: actor.member.id,
      },
      tx,
    );
    const execution = await startExecution(
      {
        memberId: actor.member.id,
        workflowId: workflow.id,
        workflowVersionId: versionId,
        simulated: true,
        callModels: input.callModels === true,
        trigger: {
          type: facts.triggerType,
          nodeId: facts.triggerNodeId,
          data: input.triggerData ?? (message ? ((await mailTriggerDataOf(tx, message.id, { graph: draft, triggerNodeId: facts.triggerNodeId, workflowSettings: workflow.settings })) ?? {}) : {}),
          mailboxId: message?.mailboxId ?? null,
          messageId: message?.id ?? null,
          headline: message ? { subject: message.subject, fromName: message.fromName, fromEmail: message.fromEmail } : null,
        },
      },
      tx,
    );
    return { executionId: execution.id };
  });
}
