/**
 * The blast-radius guard's verdict on one send, asked by the send pipeline when it claims an item
 * (in the claim's transaction). A verdict with a hold keeps the item `held` (never dropped) until the
 * member releases the hold.
 */
import type { Tx } from '../../core/db';
import type { OutboundMessage } from '../../generated/prisma/client';

export interface GuardVerdict {
  /** The open hold that keeps this item (an existing one, or one this call tripped), or null: send. */
  holdId: string | null;
}

export async function evaluateSendGuard(item: OutboundMessage, tx: Tx): Promise<GuardVerdict> {
  // Filled by the guard (caps, ping-pong, repeated recipient); until then every send passes.
  void item;
  void tx;
  return { holdId: null };
}
