/**
 * The database side of one CSV export: an export slot (export-budget.ts), a pool connection of its
 * own, a read-only transaction and a cursor over the view's rows, all taken before the answer starts
 * (so a busy pool or a full budget is a clean 503/429, not a broken download), and all given back
 * exactly once, whichever comes first:
 *
 * - the last row was read (COMMIT);
 * - the download was cancelled or failed (ROLLBACK);
 * - the reader took nothing for TABLES_EXPORT_IDLE_SECONDS: the connection is closed (the server
 *   ends the transaction with it), so a stalled or vanished reader holds nothing for long. The
 *   database ends such a session itself too, a little later (`idle_in_transaction_session_timeout`),
 *   should this process not get to it.
 */
import type pg from 'pg';
import { config } from '../../../core/config';
import { pool } from '../../../core/db';
import { log } from '../../../core/log';
import type { Cells } from '../rows/cells';
import { rowsTransactionBegin, searchQueryOf } from '../rows/read-transaction';
import { takeExportSlot } from './export-budget';

/** The statement of the view, once `q` is a tsquery (see rows/query.ts exportStatement). */
export type ExportStatementOf = (tsquery: string | null) => { text: string; values: unknown[] };

/** How much longer the database waits than this process before it ends an idle export itself. */
const databaseGraceMs = 10_000;

export class ExportCursor {
  private closed = false;
  private broken = false;
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly onClientError = () => {
    this.broken = true;
  };

  private constructor(
    private readonly client: pg.PoolClient,
    private readonly giveSlotBack: () => void,
    private readonly idleMs: number,
  ) {
    client.on('error', this.onClientError);
    this.armIdleTimer();
  }

  /** Takes the member's export slot and a connection, opens the transaction and the cursor. */
  static async open(memberId: string, q: string | null, statementOf: ExportStatementOf): Promise<ExportCursor> {
    const giveSlotBack = takeExportSlot(memberId);
    let client: pg.PoolClient;
    try {
      client = await pool().connect();
    } catch (error) {
      giveSlotBack();
      throw error;
    }
    const idleMs = config().TABLES_EXPORT_IDLE_SECONDS * 1000;
    const cursor = new ExportCursor(client, giveSlotBack, idleMs);
    try {
      await client.query(`${rowsTransactionBegin('scan')}; SET LOCAL idle_in_transaction_session_timeout = ${idleMs + databaseGraceMs}`);
      const statement = statementOf(await searchQueryOf(client, q));
      await client.query(`DECLARE table_export NO SCROLL CURSOR FOR ${statement.text}`, statement.values);
    } catch (error) {
      await cursor.close('failed');
      throw error;
    }
    return cursor;
  }

  /** The next rows (fewer than `count` at the end). The idle clock stops while the database works. */
  async fetch(count: number): Promise<Cells[]> {
    if (this.closed) throw new Error('the export was ended: its reader took nothing for too long');
    this.disarmIdleTimer();
    try {
      const { rows } = await this.client.query<{ cells: Cells }>(`FETCH ${count} FROM table_export`);
      return rows.map((row) => row.cells);
    } finally {
      this.armIdleTimer();
    }
  }

  /** Ends the transaction (COMMIT when every row was read) and gives the connection and the slot back. Once. */
  async close(outcome: 'complete' | 'failed'): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.disarmIdleTimer();
    try {
      await this.client.query(outcome === 'complete' ? 'COMMIT' : 'ROLLBACK');
    } catch {
      this.broken = true;
    }
    this.giveBack(this.broken);
  }

  private expire(): void {
    if (this.closed) return;
    this.closed = true;
    log.info({ idleSeconds: this.idleMs / 1000 }, 'CSV export ended: its reader took nothing for too long');
    // Closing the connection ends the transaction on the server; no statement to wait for.
    this.giveBack(true);
  }

  private giveBack(destroy: boolean): void {
    this.client.removeListener('error', this.onClientError);
    // A connection whose transaction state is unknown is closed rather than reused.
    this.client.release(destroy);
    this.giveSlotBack();
  }

  private armIdleTimer(): void {
    if (this.closed) return;
    this.disarmIdleTimer();
    this.idleTimer = setTimeout(() => this.expire(), this.idleMs);
    this.idleTimer.unref();
  }

  private disarmIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }
}
