/**
 * One turn of a conversation, run in the web process that accepted it, detached from the request:
 * the browser may go away, the turn goes on. The model is called (streaming) with the tools of a
 * workflow-attached conversation, tools are run and the model called again until it answers (at most
 * `assistantBounds.maxSteps` calls). As it streams:
 * - text deltas go to the member's browsers (`assistant.delta`, batched about every 80 ms);
 * - the assistant message (content and parts) is written at most every 250 ms, so a browser that
 *   reconnects catches up by reading the conversation.
 * Cancelling aborts the run at once in this process (the registry below); a run in another web
 * process notices the `cancelled` status at its next write and aborts itself. The message is also
 * written every `turnHeartbeatMs` while the model is silent: its `updated_at` is the turn's heartbeat,
 * and a turn whose process died is settled by ./sweep.ts once it goes stale.
 * Every call is checked against the budgets before (enforceBudget) and recorded after (recordUsage).
 */
import type { LlmConnection } from '../../generated/prisma/client';
import { callModel } from '../../core/ai/call-model';
import { isAiCallError } from '../../core/ai/errors';
import type { AiMessage, AiNetOptions, AiToolCall, CallModelResult } from '../../core/ai/types';
import type { AuthenticatedActor } from '../../core/auth/access';
import { db } from '../../core/db';
import { isAppError } from '../../core/errors/app-error';
import { log } from '../../core/log';
import { emitToMember } from '../../core/realtime/emit';
import { llmNetOptions, endpointOf, type ModelChoice, type RoutableConnection, enforceBudget, recordUsage } from '../llm';
import { assistantBounds } from './schemas';
import { interruptedError, turnHeartbeatMs } from './sweep';
import { assistantTools, runTool, type ToolContext } from './tools';

type Choice = ModelChoice<RoutableConnection & { row: LlmConnection }>;

export type MessagePart =
  | { type: 'text'; text: string }
  | { type: 'tool_call'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; id: string; name: string; result: unknown };

const writeEveryMs = 250;
const emitEveryMs = 80;
const emitChunkChars = 1_500;
const callTimeoutMs = 180_000;
const historyMessages = 40;

/** Test seams: the fake vendors' loopback address, and an observer of emitted deltas. Never set in production. */
export const assistantTestHooks: {
  net?: AiNetOptions;
  onEmit?: (payload: { messageId: string; offset: number; delta: string }) => void;
  onDelta?: (conversationId: string, delta: string) => void;
  /** Replaces `turnHeartbeatMs`. */
  heartbeatMs?: number;
} = {};

const running = new Map<string, { controller: AbortController; done: Promise<void> }>();

export function abortTurn(conversationId: string): void {
  running.get(conversationId)?.controller.abort();
}

/** Why a turn was aborted by `interruptTurns` rather than by the member. */
const interrupted = Symbol('interrupted');

/**
 * Settles every turn of this process as interrupted (`failed`, `assistant.turn_interrupted`, the text
 * kept), for a web process that is stopping; resolves when they are written or after `waitMs`.
 */
export async function interruptTurns(waitMs = 5_000): Promise<number> {
  const entries = [...running.values()];
  for (const entry of entries) entry.controller.abort(interrupted);
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, waitMs);
    timer.unref();
  });
  await Promise.race([Promise.all(entries.map((entry) => entry.done)), bound]);
  clearTimeout(timer);
  return entries.length;
}

/** Resolves when the conversation's turn in this process has ended (at once when none runs). */
export async function turnSettled(conversationId: string): Promise<void> {
  await running.get(conversationId)?.done;
}

const systemPrompt = (attached: boolean) =>
  [
    'You are the assistant of Mailflow, a self-hosted service where a member automates their mail with workflows.',
    'A workflow is a graph: `nodes` ({id, type, version, name, params, position {x, y}, onError, disabled}) joined by `connections` ({from, output, to, input?}); the first node is a trigger (a mail arriving, a webhook, a schedule, a failed workflow). Outputs are ports such as `main`, `true`/`false` for a condition.',
    attached
      ? 'You are attached to one workflow. Read it with get_workflow, look up node types and their params with list_node_types, look at recent_executions to explain failures. To change it, call propose_graph with the FULL new graph and a short summary; the member previews the diff and accepts or rejects it. Keep node ids that do not change. Never claim a change was applied: the member decides.'
      : 'No workflow is attached to this conversation: answer questions about the product and about building workflows.',
    'Answer in the language of the member, concisely, in Markdown.',
  ].join('\n');

interface TurnInput {
  actor: AuthenticatedActor;
  conversationId: string;
  workflowId: string | null;
  messageId: string;
  choice: Choice;
}

export function startTurnRun(input: TurnInput): void {
  const controller = new AbortController();
  const entry = { controller, done: Promise.resolve() };
  entry.done = runTurn(input, controller)
    .catch((error: unknown) => log.error({ err: error, conversationId: input.conversationId }, 'assistant: turn crashed'))
    .finally(() => {
      // The next turn may already have registered itself (the conversation went idle just before).
      if (running.get(input.conversationId) === entry) running.delete(input.conversationId);
    });
  running.set(input.conversationId, entry);
}

async function history(conversationId: string, messageId: string): Promise<AiMessage[]> {
  const rows = await db().assistantMessage.findMany({
    where: { conversationId, id: { not: messageId }, role: { in: ['user', 'assistant'] } },
    orderBy: [{ seq: 'desc' }, { createdAt: 'desc' }],
    take: historyMessages,
  });
  return rows
    .reverse()
    .filter((row) => row.content.trim() !== '')
    .map((row) => (row.role === 'user' ? { role: 'user' as const, content: row.content } : { role: 'assistant' as const, content: row.content }));
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
      await db().assistantMessage.updateMany({
        where: { id: messageId, ...(final ? {} : { status: 'streaming' }) },
        data: { content: snapshot.content, parts: snapshot.parts, ...(final ? { status: final.status, error: final.error ?? undefined } : {}) },
      });
      if (!final) {
        const row = await db().assistantConversation.findUnique({ where: { id: conversationId }, select: { status: true } });
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
      await recordCall(input, result);
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
  await db().assistantConversation.updateMany({ where: { id: conversationId, status: 'running' }, data: { status } });
  const row = await db().assistantConversation.findUnique({ where: { id: conversationId }, select: { status: true } });
  await emitToMember(memberId, 'assistant.changed', { conversationId, status: row?.status ?? status, messageId }).catch(() => {});
}

async function runToolSafely(call: AiToolCall, context: ToolContext): Promise<unknown> {
  try {
    return await runTool(call.name, call.input, context);
  } catch (error) {
    log.warn({ err: error, tool: call.name }, 'assistant: tool failed');
    return { error: 'The tool failed.' };
  }
}

async function recordCall(input: TurnInput, result: CallModelResult): Promise<void> {
  const { costUsd } = await recordUsage({
    connectionId: input.choice.connection.id,
    provider: input.choice.connection.provider,
    model: input.choice.model,
    purpose: 'assistant',
    memberId: input.actor.member.id,
    workflowId: input.workflowId,
    conversationId: input.conversationId,
    inputTokens: result.usage.inputTokens,
    outputTokens: result.usage.outputTokens,
    reasoningTokens: result.usage.reasoningTokens ?? 0,
  });
  const tokens = (value: number) => (Number.isFinite(value) && value > 0 ? Math.min(Math.floor(value), 1_000_000_000) : 0);
  await db().$executeRaw`
    UPDATE assistant_conversations
    SET calls = calls + 1,
        input_tokens = LEAST(input_tokens::bigint + ${tokens(result.usage.inputTokens)}, 2147483647)::int,
        output_tokens = LEAST(output_tokens::bigint + ${tokens(result.usage.outputTokens)}, 2147483647)::int,
        cost_usd = CASE WHEN ${costUsd}::float8 IS NULL THEN cost_usd ELSE coalesce(cost_usd, 0) + ${costUsd}::float8 END,
        last_model = ${result.model.slice(0, 200)},
        updated_at = now()
    WHERE id = ${input.conversationId}::uuid`;
}
