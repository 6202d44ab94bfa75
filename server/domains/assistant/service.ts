/**
 * The assistant's conversations: create, list, read, send a turn (run by ./turn.ts), cancel, and
 * decide the graph proposals a turn produced. Every read and write is scoped to the caller: another
 * member's conversation or proposal is 404 `assistant.not_found`.
 */
import type { AssistantConversation } from '../../generated/prisma/client';
import { aiProviderFacts } from '../../core/ai/providers';
import type { AiProvider } from '../../core/ai/types';
import type { AuthenticatedActor } from '../../core/auth/access';
import { db, type Tx } from '../../core/db';
import { appError, isAppError } from '../../core/errors/app-error';
import { emitToMember } from '../../core/realtime/emit';
import type { GraphInput } from '../../engine/contract/graph';
import { enforceBudget, resolveForPurpose, isRefusal, type ModelRequest } from '../llm';
import { isUuid } from '../../core/ids';
import { needFor, putGraph } from '../workflows';
import { presentConversation, presentMessage, presentProposal, storedModelOf } from './present';
import {
  cancelRunningTurn,
  claimTurn,
  decidePending,
  findConversation,
  findOwnWorkflowId,
  findProposal,
  insertConversation,
  insertMessage,
  lastSeqOf,
  listConversationRows,
  messagesOf,
  proposalById,
  proposalsOf,
  retitleConversation,
} from './repo';
import { assistantBounds, type CreateConversationInput, type ListConversationsInput } from './schemas';
import { startTurnRun } from './turn';
import { abortTurn } from './turn-registry';

const defaultTitle = 'New conversation';

function titleOf(content: string): string {
  const line = content.replace(/\s+/g, ' ').trim();
  return line.length <= 80 ? line : `${line.slice(0, 79)}…`;
}

export function conversationNotFound(id: string) {
  return appError('assistant.not_found', { details: { kind: 'conversation', id } });
}

export async function findOwnedConversation(memberId: string, id: string, tx: Pick<Tx, 'assistantConversation'> = db()): Promise<AssistantConversation> {
  const row = await findConversation(memberId, id, tx);
  if (!row) throw conversationNotFound(id);
  return row;
}

/**
 * The connection and model of a conversation's turn: the conversation's own choice (checked against
 * the connection's `enabledModels`), else the `assistant` purpose's routing. Throws
 * `assistant.model_not_allowed` for a refused request, `assistant.no_provider` when nothing serves.
 */
export async function chooseModel(model: ModelRequest | null) {
  const choice = await resolveForPurpose('assistant', model ?? undefined);
  if (isRefusal(choice)) throw appError('assistant.model_not_allowed', { details: { reason: choice.refused, model: model?.model ?? null } });
  if (!choice) {
    if (model) throw appError('assistant.model_not_allowed', { details: { reason: 'connection_not_found', model: model.model } });
    throw appError('assistant.no_provider');
  }
  return choice;
}

function refuseWithoutTools(provider: string) {
  const facts = aiProviderFacts[provider as AiProvider];
  if (!facts || !facts.supportsTools) throw appError('assistant.tools_not_supported', { details: { provider } });
}

export async function listConversations(actor: AuthenticatedActor, input: ListConversationsInput) {
  const workflowId = input.workflowId !== undefined ? (isUuid(input.workflowId) ? input.workflowId.toLowerCase() : '00000000-0000-0000-0000-000000000000') : undefined;
  const rows = await listConversationRows(actor.member.id, workflowId, input.limit ?? assistantBounds.listDefault);
  return { conversations: rows.map(presentConversation) };
}

export async function createConversation(actor: AuthenticatedActor, input: CreateConversationInput) {
  let workflowId: string | null = null;
  if (input.workflowId !== undefined) {
    const workflow = isUuid(input.workflowId) ? await findOwnWorkflowId(actor.member.id, input.workflowId.toLowerCase()) : null;
    if (!workflow) throw appError('assistant.bad_request', { details: { field: 'workflowId', reason: 'workflow_not_found' } });
    workflowId = workflow.id;
  }
  if (input.model) {
    const choice = await chooseModel(input.model);
    if (workflowId) refuseWithoutTools(choice.connection.provider);
  } else if (workflowId) {
    // The routed model may change before a turn; refuse now only what is known now.
    const routed = await resolveForPurpose('assistant');
    if (routed && !isRefusal(routed)) refuseWithoutTools(routed.connection.provider);
  }
  const row = await insertConversation({ memberId: actor.member.id, workflowId, title: input.title ?? defaultTitle, model: input.model ? { ...input.model } : undefined });
  return { conversation: presentConversation(row) };
}

export async function getConversation(actor: AuthenticatedActor, id: string) {
  const row = await findOwnedConversation(actor.member.id, id);
  const [messages, proposals] = await Promise.all([messagesOf(row.id), proposalsOf(row.id)]);
  return { conversation: presentConversation(row), messages: messages.map(presentMessage), proposals: proposals.map(presentProposal) };
}

/** Records the member's message and starts the turn in the background; answers the assistant message's id. */
export async function sendTurn(actor: AuthenticatedActor, input: { id: string; content: string }) {
  const conversation = await findOwnedConversation(actor.member.id, input.id);
  if (conversation.status === 'running') throw appError('assistant.turn_running');
  const choice = await chooseModel(storedModelOf(conversation));
  if (conversation.workflowId) refuseWithoutTools(choice.connection.provider);
  await enforceBudget(actor.member.id);
  const messageId = await db().$transaction(async (tx) => {
    // Only one turn at a time, whatever the number of web processes.
    const claimed = await claimTurn(tx, conversation.id);
    if (claimed.count === 0) throw appError('assistant.turn_running');
    const last = await lastSeqOf(tx, conversation.id);
    const seq = (last._max.seq ?? 0) + 1;
    // An untitled conversation takes its first question as title.
    if (last._max.seq === null && conversation.title === defaultTitle) {
      await retitleConversation(tx, conversation.id, titleOf(input.content));
    }
    await insertMessage(tx, { conversationId: conversation.id, seq, role: 'user', content: input.content, parts: [{ type: 'text', text: input.content }], status: 'done' });
    const message = await insertMessage(tx, { conversationId: conversation.id, seq: seq + 1, role: 'assistant', status: 'streaming' });
    await emitToMember(actor.member.id, 'assistant.changed', { conversationId: conversation.id, status: 'running', messageId: message.id }, tx);
    return message.id;
  });
  startTurnRun({ actor, conversationId: conversation.id, workflowId: conversation.workflowId, messageId, choice });
  return { messageId };
}

/** Cancels the running turn (its partial text stays); a conversation that is not running is answered as it is. */
export async function cancelTurn(actor: AuthenticatedActor, id: string) {
  const conversation = await findOwnedConversation(actor.member.id, id);
  if (conversation.status === 'running') {
    await db().$transaction(async (tx) => {
      await cancelRunningTurn(tx, conversation.id);
      await emitToMember(actor.member.id, 'assistant.changed', { conversationId: conversation.id, status: 'cancelled' }, tx);
    });
    // This process's run stops at once; a run in another process sees the status at its next write.
    abortTurn(conversation.id);
  }
  return { conversation: presentConversation(await findOwnedConversation(actor.member.id, id)) };
}

async function ownedProposal(actor: AuthenticatedActor, input: { id: string; proposalId: string }) {
  await findOwnedConversation(actor.member.id, input.id);
  const proposal = await findProposal(input.id, input.proposalId);
  if (!proposal) throw appError('assistant.not_found', { details: { kind: 'proposal', id: input.proposalId } });
  if (proposal.status !== 'pending') throw appError('assistant.proposal_decided', { details: { status: proposal.status } });
  return proposal;
}

async function decide(actor: AuthenticatedActor, proposalId: string, status: 'accepted' | 'rejected' | 'stale') {
  const updated = await decidePending(proposalId, status);
  const row = await proposalById(proposalId);
  if (updated.count === 0 && row.status !== status) throw appError('assistant.proposal_decided', { details: { status: row.status } });
  await emitToMember(actor.member.id, 'assistant.changed', { conversationId: row.conversationId, status: row.status, proposalId: row.id });
  return row;
}

/**
 * Writes the proposed graph as the workflow's draft, only over the draft revision the assistant
 * read: a draft changed since is 409 `workflow.revision_conflict` and the proposal goes `stale`.
 * The published version is never touched (putGraph writes the draft only).
 */
export async function acceptProposal(actor: AuthenticatedActor, input: { id: string; proposalId: string }) {
  const proposal = await ownedProposal(actor, input);
  let draftRevision: number;
  try {
    // Accepting writes a workflow's draft: through a key, that is workflows:write besides the graph's own scopes.
    ({ draftRevision } = await putGraph(actor, { id: proposal.workflowId, graph: proposal.graph as GraphInput, draftRevision: proposal.baseDraftRevision }, [
      needFor('workflows:write', 'draft_write'),
    ]));
  } catch (error) {
    if (isAppError(error) && error.code === 'workflow.revision_conflict') await decide(actor, proposal.id, 'stale');
    throw error;
  }
  const row = await decide(actor, proposal.id, 'accepted');
  return { proposal: presentProposal(row), draftRevision };
}

export async function rejectProposal(actor: AuthenticatedActor, input: { id: string; proposalId: string }) {
  const proposal = await ownedProposal(actor, input);
  const row = await decide(actor, proposal.id, 'rejected');
  return { proposal: presentProposal(row), draftRevision: null };
}
