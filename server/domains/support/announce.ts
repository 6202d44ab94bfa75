/**
 * Live updates of support threads: `support.thread` {threadId} to the thread's author and to the active
 * administrators (who follow the organisation's threads), on the caller's transaction so a rolled-back
 * change announces nothing. The browser re-reads the thread and the list through the API.
 */
import type { Tx } from '../../core/db';
import { emitToMember } from '../../core/realtime/emit';
import { findActiveAdminIds } from '../members';

export async function announceThreads(tx: Pick<Tx, 'member' | '$executeRaw'>, threads: { id: string; authorMemberId: string | null }[]): Promise<void> {
  if (threads.length === 0) return;
  const admins = await findActiveAdminIds(tx);
  for (const thread of threads) {
    const audience = new Set([...(thread.authorMemberId ? [thread.authorMemberId] : []), ...admins]);
    for (const memberId of audience) await emitToMember(memberId, 'support.thread', { threadId: thread.id }, tx);
  }
}
