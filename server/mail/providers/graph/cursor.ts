/**
 * What the Graph adapter keeps in each folder's `deltaToken` (see ../cursor-codec.ts): the delta
 * round in progress (`next`: the last `@odata.nextLink`) or the finished one (`delta`: the
 * `@odata.deltaLink` to start the next round from), the round's mode while the first round runs
 * (`initial`, or `resync` after the provider expired the delta state), where the folder's window
 * starts (`windowMs`: the initial sync covers newer mail, the backfill older), and the backfill
 * position (next link, oldest receive time, count listed and the folder's total, done, the `since`
 * it was asked with).
 */
import { decodeFields, encodeFields } from '../cursor-codec';

const prefix = 'm1:';

const spec = {
  n: 'text',
  d: 'text',
  m: 'text',
  w: 'int',
  bn: 'text',
  bo: 'int',
  bl: 'int',
  bt: 'int',
  bd: 'flag',
  bs: 'int',
} as const;

export interface GraphCursor {
  next?: string;
  delta?: string;
  mode?: 'initial' | 'resync';
  windowMs?: number;
  backfillNext?: string;
  backfillOldestMs?: number;
  backfillListed?: number;
  backfillTotal?: number;
  backfillDone?: boolean;
  backfillSinceMs?: number;
}

export function decodeGraphCursor(token: string | null | undefined): GraphCursor {
  const fields = decodeFields(prefix, token, spec);
  return {
    next: fields.n,
    delta: fields.d,
    mode: fields.m === 'initial' || fields.m === 'resync' ? fields.m : undefined,
    windowMs: fields.w,
    backfillNext: fields.bn,
    backfillOldestMs: fields.bo,
    backfillListed: fields.bl,
    backfillTotal: fields.bt,
    backfillDone: fields.bd,
    backfillSinceMs: fields.bs,
  };
}

export function encodeGraphCursor(cursor: GraphCursor): string {
  return encodeFields(prefix, {
    n: cursor.next,
    d: cursor.delta,
    m: cursor.mode,
    w: cursor.windowMs,
    bn: cursor.backfillNext,
    bo: cursor.backfillOldestMs,
    bl: cursor.backfillListed,
    bt: cursor.backfillTotal,
    bd: cursor.backfillDone,
    bs: cursor.backfillSinceMs,
  });
}
