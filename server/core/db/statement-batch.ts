/**
 * A batch of statements that do not depend on one another's results, run the same way inside a Prisma transaction
 * or on a `pg` connection of the caller's own transaction. One text per statement serves both: a path that must stay
 * exact (the send guard's counts) reads through the same SQL whichever way its transaction is held.
 *
 * - In Prisma (`batchInPrisma`): one statement after another, unnamed. Not by name: a connection of the pool that
 *   PREPAREd the text (below) already holds that name, which pg does not know, and its Parse of it would fail.
 * - On a `pg` connection (`batchOnConnection`): the statements prepared once per connection, then all of them in one
 *   simple-protocol round trip (`EXECUTE name(literals)`); inside the caller's BEGIN they are part of its transaction.
 *   Each still takes its own snapshot (READ COMMITTED), as they would one after another.
 *
 * Values are what a literal can say exactly (inline-sql.ts): text, finite numbers, booleans, null. A time is passed
 * as its ISO text and a list as JSON text, each cast in the statement.
 */
import type pg from 'pg';
import type { Tx } from './index';
import { ensurePrepared, executeText, type SqlPreparedStatement } from './prepared';

export interface BoundStatement {
  statement: SqlPreparedStatement;
  values: readonly (string | number | boolean | null)[];
}

/** Runs a batch and answers each statement's rows, in order. */
export type StatementBatchRunner = (batch: readonly BoundStatement[]) => Promise<Record<string, unknown>[][]>;

export function batchInPrisma(tx: Tx): StatementBatchRunner {
  return async (batch) => {
    const answers: Record<string, unknown>[][] = [];
    for (const { statement, values } of batch) answers.push(await tx.$queryRawUnsafe<Record<string, unknown>[]>(`${statement.text}\n-- unnamed`, ...values));
    return answers;
  };
}

/**
 * On a connection: with `before` and `after`, plain statements of the same round trip around the batch (a BEGIN and
 * a transaction's settings, a COMMIT), whose results are not answered.
 */
export function batchOnConnection(client: pg.ClientBase, around: { before?: readonly string[]; after?: readonly string[] } = {}): StatementBatchRunner {
  return async (batch) => {
    const before = around.before ?? [];
    const after = around.after ?? [];
    const names = await ensurePrepared(client, batch.map((each) => each.statement));
    const texts = [...before, ...batch.map((each, index) => executeText(names[index], each.statement, each.values)), ...after];
    if (texts.length === 0) return [];
    const results = (await client.query(texts.join(';\n'))) as unknown as pg.QueryResult | pg.QueryResult[];
    const all = Array.isArray(results) ? results : [results];
    return all.slice(before.length, before.length + batch.length).map((result) => result.rows as Record<string, unknown>[]);
  };
}
