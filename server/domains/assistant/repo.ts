/** The assistant's conversations, messages and proposals as the service reads and writes them (always under the member's scope there). */
import { db, type Tx } from '../../core/db';
import type { Prisma } from '../../generated/prisma/client';

export function findConversation(memberId: string, id: string, tx: Pick<Tx, 'assistantConversation'> = db()) {
  return tx.assistantConversation.findFirst({ where: { id, memberId } });
}

/** Newest first; `workflowId` undefined lists every conversation of the member. */
export function listConversationRows(memberId: string, workflowId: string | undefined, take: number) {
  return db().assistantConversation.findMany({
    where: { memberId, ...(workflowId !== undefined ? { workflowId } : {}) },
    orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
    take,
  });
}

/** The member's workflow a conversation is about (its id), or null. */
export function findOwnWorkflowId(memberId: string, workflowId: string) {
  return db().workflow.findFirst({ where: { id: workflowId, memberId }, select: { id: true } });
}

export function insertConversation(data: Prisma.AssistantConversationUncheckedCreateInput) {
  return db().assistantConversation.create({ data });
}

export function messagesOf(conversationId: string) {
  return db().assistantMessage.findMany({ where: { conversationId }, orderBy: [{ seq: 'asc' }, { createdAt: 'asc' }] });
}

export function proposalsOf(conversationId: string) {
  return db().assistantProposal.findMany({ where: { conversationId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

/** Only one turn at a time, whatever the number of web processes: the conversation goes `running` unless it is. */
export function claimTurn(tx: Tx, conversationId: string) {
  return tx.assistantConversation.updateMany({ where: { id: conversationId, status: { not: 'running' } }, data: { status: 'running' } });
}

export function lastSeqOf(tx: Tx, conversationId: string) {
  return tx.assistantMessage.aggregate({ where: { conversationId }, _max: { seq: true } });
}

export function retitleConversation(tx: Tx, conversationId: string, title: string) {
  return tx.assistantConversation.update({ where: { id: conversationId }, data: { title } });
}

export function insertMessage(tx: Tx, data: Prisma.AssistantMessageUncheckedCreateInput) {
  return tx.assistantMessage.create({ data });
}

/** The running turn ends `cancelled`, its streaming message too (its partial text stays). */
export async function cancelRunningTurn(tx: Tx, conversationId: string) {
  await tx.assistantConversation.updateMany({ where: { id: conversationId, status: 'running' }, data: { status: 'cancelled' } });
  await tx.assistantMessage.updateMany({ where: { conversationId, status: 'streaming' }, data: { status: 'cancelled' } });
}

export function findProposal(conversationId: string, proposalId: string) {
  return db().assistantProposal.findFirst({ where: { id: proposalId, conversationId } });
}

/** A pending proposal decided (a count of 0: it was decided already). */
export function decidePending(proposalId: string, status: 'accepted' | 'rejected' | 'stale') {
  return db().assistantProposal.updateMany({ where: { id: proposalId, status: 'pending' }, data: { status, decidedAt: new Date() } });
}

export function proposalById(proposalId: string) {
  return db().assistantProposal.findUniqueOrThrow({ where: { id: proposalId } });
}

/** Conversations still `running` whose streaming message has not been written since `cutoff` (oldest first). */
export function findStaleRunningConversations(cutoff: Date, limit: number) {
  return db().$queryRaw<{ id: string; member_id: string }[]>`
    SELECT c.id, c.member_id FROM assistant_conversations c
    WHERE c.status = 'running' AND c.updated_at < ${cutoff}
      AND NOT EXISTS (
        SELECT 1 FROM assistant_messages m
        WHERE m.conversation_id = c.id AND m.status = 'streaming' AND m.updated_at >= ${cutoff})
    ORDER BY c.updated_at
    LIMIT ${limit}`;
}

/** The conversation goes `failed` if it is still running and still stale (checked on the row itself); answers the rows changed. */
export function claimInterruptedConversation(tx: Tx, conversationId: string, cutoff: Date) {
  return tx.$executeRaw`
        UPDATE assistant_conversations c SET status = 'failed', updated_at = now()
        WHERE c.id = ${conversationId}::uuid AND c.status = 'running' AND c.updated_at < ${cutoff}
          AND NOT EXISTS (
            SELECT 1 FROM assistant_messages m
            WHERE m.conversation_id = c.id AND m.status = 'streaming' AND m.updated_at >= ${cutoff})`;
}

/** The conversation's streaming message ends `failed` with this error (its text stays). */
export function failStreamingMessages(tx: Tx, conversationId: string, error: { code: string; message: string }) {
  return tx.assistantMessage.updateMany({ where: { conversationId, status: 'streaming' }, data: { status: 'failed', error } });
}

/** The member's workflow (the whole row: the tools read its draft), or null. */
export function findOwnWorkflow(memberId: string, workflowId: string) {
  return db().workflow.findFirst({ where: { id: workflowId, memberId } });
}

/** The workflow's last runs, newest first, each with its first failed step. */
export function findRecentRuns(memberId: string, workflowId: string, take: number) {
  return db().execution.findMany({
    where: { workflowId, memberId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take,
    include: { steps: { where: { status: 'failed' }, select: { nodeId: true, nodeType: true, error: true }, take: 1 } },
  });
}

export function insertProposal(data: Prisma.AssistantProposalUncheckedCreateInput) {
  return db().assistantProposal.create({ data });
}

/** The user and assistant messages before `messageId`, newest first (the turn reverses them). */
export function findHistoryMessages(conversationId: string, messageId: string, take: number) {
  return db().assistantMessage.findMany({
    where: { conversationId, id: { not: messageId }, role: { in: ['user', 'assistant'] } },
    orderBy: [{ seq: 'desc' }, { createdAt: 'desc' }],
    take,
  });
}

/**
 * Writes the turn's message: while streaming only if it still streams (a cancel elsewhere wins); the final
 * write (`final`) whatever its status.
 */
export function writeTurnMessage(messageId: string, snapshot: { content: string; parts: Prisma.InputJsonValue }, final?: { status: string; error?: { code: string; message: string } }) {
  return db().assistantMessage.updateMany({
    where: { id: messageId, ...(final ? {} : { status: 'streaming' }) },
    data: { content: snapshot.content, parts: snapshot.parts, ...(final ? { status: final.status, error: final.error ?? undefined } : {}) },
  });
}

export function findConversationStatus(conversationId: string) {
  return db().assistantConversation.findUnique({ where: { id: conversationId }, select: { status: true } });
}

/** A running conversation ends with the turn's status (a cancelled one stays cancelled). */
export function settleRunningConversation(conversationId: string, status: string) {
  return db().assistantConversation.updateMany({ where: { id: conversationId, status: 'running' }, data: { status } });
}

/** One more model call on the conversation's counters (tokens clamped to the column, cost added when known). */
export function addCallToConversation(conversationId: string, call: { inputTokens: number; outputTokens: number; costUsd: number | null; model: string }) {
  return db().$executeRaw`
    UPDATE assistant_conversations
    SET calls = calls + 1,
        input_tokens = LEAST(input_tokens::bigint + ${call.inputTokens}, 2147483647)::int,
        output_tokens = LEAST(output_tokens::bigint + ${call.outputTokens}, 2147483647)::int,
        cost_usd = CASE WHEN ${call.costUsd}::float8 IS NULL THEN cost_usd ELSE coalesce(cost_usd, 0) + ${call.costUsd}::float8 END,
        last_model = ${call.model},
        updated_at = now()
    WHERE id = ${conversationId}::uuid`;
}
