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
