/**
 * One turn of a conversation, run in the web process that accepted it, detached from the request:
 * the browser may go away, the turn goes on. The model is called (streaming) with the tools of a
 * workflow-attached conversation, tools are run and the model called again until it answers (at most
 * `assistantBounds.maxSteps` calls). As it streams:
 * - text deltas go to the member's browsers (`assistant.delta`, batched about every 80 ms);
 * - the assistant message (content and parts) is written at most every 250 ms, so a browser that
 *   reconnects catches up by reading the conversation.
 * Cancelling aborts the run at once in this process (./turn-registry.ts); a run in another web
 * process notices the `cancelled` status at its next write and aborts itself. The message is also
 * written every `turnHeartbeatMs` while the model is silent: its `updated_at` is the turn's heartbeat,
 * and a turn whose process died is settled by ./sweep.ts once it goes stale.
 * Every call is checked against the budgets before (enforceBudget) and recorded after (recordUsage).
 */
import type { LlmConnection } from '../../generated/prisma/client';
import { callModel } from '../../core/ai/call-model';
import { isAiCallError } from '../../core/ai/errors';
import type { AiMessage, AiNetOptions, CallModelResult } from '../../core/ai/types';
import type { AuthenticatedActor } from '../../core/auth/access';
import { isAppError } from '../../core/errors/app-error';
import { log } from '../../core/log';
import { emitToMember } from '../../core/realtime/emit';
import { llmNetOptions, endpointOf, type ModelChoice, type RoutableConnection, enforceBudget } from '../llm';
import { findConversationStatus, settleRunningConversation, writeTurnMessage } from './repo';
import { assistantBounds } from './schemas';
import { interruptedError, turnHeartbeatMs } from './sweep';
import { assistantTools, runToolSafely, type ToolContext } from './tools';
import { history, systemPrompt } from './turn-prompt';
import { interrupted, trackTurn } from './turn-registry';
import { recordCall } from './turn-usage';

type Choice = ModelChoice<RoutableConnection & { row: LlmConnection }>;

export type MessagePart =
  | { type: 'text'; text: string }
  | { type: 'tool_call'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; id: string; name: string; result: unknown };

const writeEveryMs = 250;
const emitEveryMs = 80;
const emitChunkChars = 1_500;
const callTimeoutMs = 180_000;

/** Test seams: the fake vendors' loopback address, and an observer of emitted deltas. Never set in production. */
export const assistantTestHooks: {
  net?: AiNetOptions;
  onEmit?: (payload: { messageId: string; offset: number; delta: string }) => void;
  onDelta?: (conversationId: string, delta: string) => void;
  /** Replaces `turnHeartbeatMs`. */
  heartbeatMs?: number;
} = {};



export function startTurnRun(input: TurnInput): void {
  trackTurn(input.conversationId, (controller) => runTurn(input, controller));
}

interface TurnInput {
  actor: AuthenticatedActor;
  conversationId: string;
  workflowId: string | null;
  messageId: string;
  choice: Choice;
}



async function runTurn(input: TurnInput, controller: AbortController): Promise<void> {
  const { actor, conversationId, messageId, choice } = input;
  const memberId = actor.member.id;
  const parts: MessagePart[] = [];
  let content = '';
  let pending = '';
  let pendingOffset = 0;
  let lastWrite = 0;
  let emitTimer: NodeJS.Timeout | null = null;
  let chain: Promise<void> = Promise.resolve();
  let emits: Promise<void> = Promise.resolve();

  const emitPending = () => {
    emitTimer = null;
    // Pieces well under PostgreSQL's notification limit (7,000 bytes of payload, 4 bytes a character at most).
    while (pending) {
      const piece = pending.slice(0, emitChunkChars);
      pending = pending.slice(piece.length);
      const payload = { conversationId, messageId, offset: pendingOffset, delta: piece };
      pendingOffset += piece.length;
      assistantTestHooks.onEmit?.(payload);
      // In order: one after the other (the pool's connections would otherwise race).
      emits = emits.then(() => emitToMember(memberId, 'assistant.delta', payload)).catch(() => {});
    }
  };

  const write = (final?: { status: string; error?: { code: string; message: string } }) => {
    lastWrite = Date.now();
    const snapshot = { content, parts: JSON.parse(JSON.stringify(parts)) };
    chain = chain.then(async () => {
      await writeTurnMessage(messageId, snapshot, final);
      if (!final) {
        const row = await findConversationStatus(conversationId);
        if (row?.status !== 'running') controller.abort();
      }
    });
    return chain;
  };

  const onDelta = (delta: string) => {
    if (!delta) return;
    content += delta;
    const last = parts.at(-1);
    if (last?.type === 'text') last.text += delta;
    else parts.push({ type: 'text', text: delta });
    pending += delta;
    emitTimer ??= setTimeout(emitPending, emitEveryMs);
    if (Date.now() - lastWrite >= writeEveryMs) void write().catch(() => {});
    assistantTestHooks.onDelta?.(conversationId, delta);
  };

  const endpoint = endpointOf(choice.connection.row);
  const tools = input.workflowId ? assistantTools : undefined;
  const context: ToolContext | null = input.workflowId
    ? { memberId, role: actor.member.role === 'admin' ? 'admin' : 'member', workflowId: input.workflowId, conversationId, messageId, readRevision: null }
    : null;
  const messages: AiMessage[] = await history(conversationId, messageId);

  let outcome: { status: 'done' | 'failed' | 'cancelled'; error?: { code: string; message: string } } = { status: 'done' };
  // The heartbeat: a write even while the model is silent (it also notices a cancel from elsewhere).
  const heartbeat = setInterval(() => void write().catch(() => {}), assistantTestHooks.heartbeatMs ?? turnHeartbeatMs);
  heartbeat.unref();
  try {
    for (let step = 0; step < assistantBounds.maxSteps; step += 1) {
      await enforceBudget(memberId);
      const signal = AbortSignal.any([controller.signal, AbortSignal.timeout(callTimeoutMs)]);
      // The last step offers no tools, so the model has to answer in words.
      const lastStep = step === assistantBounds.maxSteps - 1;
      let result: CallModelResult;
      try {
        result = await callModel({
          endpoint,
          model: choice.model,
          system: systemPrompt(Boolean(input.workflowId)),
          messages,
          tools: lastStep ? undefined : tools,
          signal,
          onDelta,
          net: assistantTestHooks.net ?? llmNetOptions(endpoint.provider),
        });
      } finally {
        if (emitTimer) clearTimeout(emitTimer);
        emitPending();
      }
      await recordCall({ ...input.choice, memberId: input.actor.member.id, workflowId: input.workflowId, conversationId: input.conversationId }, result);
      if (result.toolCalls.length === 0 || !context) break;
      messages.push({ role: 'assistant', content: result.text, toolCalls: result.toolCalls });
      for (const call of result.toolCalls) {
        controller.signal.throwIfAborted();
        const output = await runToolSafely(call, context);
        parts.push({ type: 'tool_call', id: call.id, name: call.name, input: call.input });
        parts.push({ type: 'tool_result', id: call.id, name: call.name, result: output });
        messages.push({ role: 'tool', toolCallId: call.id, toolName: call.name, result: output });
        if (call.name === 'propose_graph' && (output as { ok?: boolean }).ok) {
          await emitToMember(memberId, 'assistant.changed', { conversationId, status: 'running', messageId, proposalId: (output as { proposalId: string }).proposalId }).catch(() => {});
        }
      }
      await write();
    }
  } catch (error) {
    if (controller.signal.aborted) outcome = controller.signal.reason === interrupted ? { status: 'failed', error: { ...interruptedError } } : { status: 'cancelled' };
    else if (isAiCallError(error)) outcome = { status: 'failed', error: { code: `ai.${error.code}`, message: error.message } };
    else if (isAppError(error)) outcome = { status: 'failed', error: { code: error.code, message: error.message } };
    else {
      log.error({ err: error, conversationId }, 'assistant: turn failed');
      outcome = { status: 'failed', error: { code: 'internal.error', message: 'The turn failed.' } };
    }
  }
  clearInterval(heartbeat);
  if (emitTimer) clearTimeout(emitTimer);
  emitPending();
  await write(outcome);
  await emits;
  const status = outcome.status === 'done' ? 'idle' : outcome.status;
  // A cancelled conversation stays cancelled (the cancel route set it).
  await settleRunningConversation(conversationId, status);
  const row = await findConversationStatus(conversationId);
  await emitToMember(memberId, 'assistant.changed', { conversationId, status: row?.status ?? status, messageId }).catch(() => {});
}


