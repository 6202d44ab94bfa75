/**
 * What the Gmail adapter keeps in each listed folder's `deltaToken` (see ../cursor-codec.ts).
 *
 * Gmail's history is one sequence for the whole account, so the account-wide fields live on INBOX:
 * `historyId` (the delta position, present once the first window pass is done), the history id taken
 * before a window pass started (`passHistoryId`, so changes made during the pass are replayed after
 * it), the pass mode, and the backfill position (`before` bound, page token, oldest receive time seen,
 * listed count and Gmail's estimate of the total, done).
 *
 * A window pass (initial sync, or the re-read after an expired history id) lists every listed folder
 * by itself, newest first, at most `initialMaxPerFolder` each; each folder keeps its own page token,
 * count, oldest receive time, whether the cap cut it, and whether it is done, so a killed runner
 * resumes with the next page.
 */
import { decodeFields, encodeFields } from '../cursor-codec';

const prefix = 'g1:';

const spec = {
  h: 'digits',
  ph: 'digits',
  pm: 'text',
  pt: 'text',
  pn: 'int',
  po: 'int',
  pc: 'flag',
  pd: 'flag',
  bb: 'int',
  bt: 'text',
  bo: 'int',
  bn: 'int',
  be: 'int',
  bd: 'flag',
  bs: 'int',
} as const;

export interface GmailCursor {
  /** Delta position (INBOX only). */
  historyId?: string;
  /** History id taken before the current window pass (INBOX only). */
  passHistoryId?: string;
  /** `initial` (new messages ingested as initial) or `resync` (after an expired history id). INBOX only. */
  passMode?: 'initial' | 'resync';
  /** Window pass of this folder: next page, messages taken, oldest receive time (ms), cut by the cap, done. */
  passPageToken?: string;
  passCount?: number;
  passOldestMs?: number;
  passCapped?: boolean;
  passDone?: boolean;
  /** Backfill (INBOX only): messages received before this (ms) are listed, page by page. */
  backfillBeforeMs?: number;
  backfillPageToken?: string;
  backfillOldestMs?: number;
  backfillListed?: number;
  backfillEstimate?: number;
  backfillDone?: boolean;
  /** The `since` of the backfill request these fields belong to (ms; -1 for everything). */
  backfillSinceMs?: number;
}

export function decodeGmailCursor(token: string | null | undefined): GmailCursor {
  const fields = decodeFields(prefix, token, spec);
  return {
    historyId: fields.h,
    passHistoryId: fields.ph,
    passMode: fields.pm === 'initial' || fields.pm === 'resync' ? fields.pm : undefined,
    passPageToken: fields.pt,
    passCount: fields.pn,
    passOldestMs: fields.po,
    passCapped: fields.pc,
    passDone: fields.pd,
    backfillBeforeMs: fields.bb,
    backfillPageToken: fields.bt,
    backfillOldestMs: fields.bo,
    backfillListed: fields.bn,
    backfillEstimate: fields.be,
    backfillDone: fields.bd,
    backfillSinceMs: fields.bs,
  };
}

export function encodeGmailCursor(cursor: GmailCursor): string {
  return encodeFields(prefix, {
    h: cursor.historyId,
    ph: cursor.passHistoryId,
    pm: cursor.passMode,
    pt: cursor.passPageToken,
    pn: cursor.passCount,
    po: cursor.passOldestMs,
    pc: cursor.passCapped,
    pd: cursor.passDone,
    bb: cursor.backfillBeforeMs,
    bt: cursor.backfillPageToken,
    bo: cursor.backfillOldestMs,
    bn: cursor.backfillListed,
    be: cursor.backfillEstimate,
    bd: cursor.backfillDone,
    bs: cursor.backfillSinceMs,
  });
}
