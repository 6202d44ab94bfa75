/**
 * inlinedSql writes a statement's parameters as literals for a simple-protocol query (the admission's one round
 * trip, server/engine/run/admission.ts). What the database reads back must be exactly the value given, whatever
 * the text holds, and a kind with no exact literal is refused.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { pool } from './index';
import { inlinedSql } from './inline-sql';
import { useTestDatabase } from '../../testing/test-database';

const databaseUrl = await useTestDatabase();

describe('parameters written as literals', () => {
  it('text comes back exactly as given: quotes, backslashes, placeholders, a statement’s end, unicode', async () => {
    const texts = [`it's`, `back\\slash \\' and \\\\`, `$1 $2 $10`, `'); DROP TABLE members; --`, `ünïcödé ✉ 📬`, ``, `line\nbreak\ttab`];
    const text = `SELECT ${texts.map((_, index) => `$${index + 1}::text AS t${index}`).join(', ')}`;
    const { rows } = await pool().query(inlinedSql({ text, values: texts }));
    expect(Object.values(rows[0] as Record<string, string>)).toEqual(texts);
  });

  it('$10 is the tenth value, not the first followed by 0; numbers, booleans and null as themselves', async () => {
    const values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 'ten', -2.5, true, null];
    const text = `SELECT $10::text AS ten, $1::int AS one, $11::float8 AS negative, $12::boolean AS yes, $13::text AS nothing`;
    const { rows } = await pool().query(inlinedSql({ text, values }));
    expect(rows[0]).toEqual({ ten: 'ten', one: 1, negative: -2.5, yes: true, nothing: null });
  });

  it('refuses what has no exact literal: a list, an object, a date, NaN, a missing value', () => {
    for (const value of [[1, 2], { a: 1 }, new Date(0), Number.NaN, Number.POSITIVE_INFINITY, 10n]) {
      expect(() => inlinedSql({ text: 'SELECT $1', values: [value] })).toThrow(/not written as a literal/);
    }
    expect(() => inlinedSql({ text: 'SELECT $2', values: ['one'] })).toThrow(/no value for \$2/);
  });
});

describe('one round trip of several statements (what the admission sends, server/engine/run/admission.ts)', () => {
  it('settings made local by the first statement bound the statements after it: a lock wait ends at its statement_timeout', async () => {
    const holder = new pg.Client({ connectionString: databaseUrl });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock(424242)');
      const started = Date.now();
      await expect(
        pool().query(`SELECT set_config('statement_timeout', '500', true); SELECT pg_advisory_xact_lock(424242); SELECT 1`),
      ).rejects.toThrow(/statement timeout/);
      expect(Date.now() - started).toBeLessThan(5_000);
      // The setting went with the transaction: the connection's next statement has no timeout of it.
      const { rows } = await pool().query(`SELECT current_setting('statement_timeout') AS timeout`);
      expect(rows[0].timeout).toBe('0');
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
  });
});
