/**
 * Statements of a hot path are named prepared statements (prepared.ts): PostgreSQL parses and plans them once per
 * connection, however they are sent (on the pool, through Prisma, by EXECUTE in a simple-protocol query), and a
 * text that is not registered stays unnamed. Read back from `pg_prepared_statements`, which lists the statements
 * prepared on the connection that reads it and how many times each was planned anew (`custom_plans`) or ran its
 * kept plan (`generic_plans`).
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { db, pool } from './index';
import { ensurePrepared, executeText, forgetPreparedForTests, prepared } from './prepared';
import { useTestDatabase } from '../../testing/test-database';

const databaseUrl = await useTestDatabase();

interface PreparedRow {
  name: string;
  runs: number;
}
const preparedOnThisConnection = `SELECT name, (generic_plans + custom_plans)::int AS runs FROM pg_prepared_statements ORDER BY name`;

describe('a registered statement is prepared once per connection', () => {
  it('on the pool: named by its text, prepared at its first call and run again without a Parse; an unregistered text stays unnamed', async () => {
    const statement = prepared(`SELECT $1::int + 1 AS next /* pool */`);
    const client = await pool().connect();
    try {
      for (const value of [1, 2, 3]) expect((await client.query({ ...statement, values: [value] })).rows).toEqual([{ next: value + 1 }]);
      await client.query(`SELECT $1::int + 2 AS unregistered`, [1]);
      const { rows } = await client.query<PreparedRow>(preparedOnThisConnection);
      expect(rows.filter((row) => row.name.startsWith('mf_'))).toContainEqual({ name: statement.name, runs: 3 });
      expect(rows.find((row) => row.name === prepared(`SELECT $1::int + 2 AS unregistered`).name)).toBeUndefined();
    } finally {
      client.release();
    }
  });

  it('through Prisma: a registered text sent with $queryRawUnsafe is named; Prisma’s own statements are not', async () => {
    const text = prepared(`SELECT $1::text || '!' AS shout /* prisma */`).text;
    const found = await db().$transaction(async (tx) => {
      await tx.$queryRawUnsafe(text, 'a');
      expect(await tx.$queryRawUnsafe(text, 'b')).toEqual([{ shout: 'b!' }]);
      await tx.member.count();
      return tx.$queryRawUnsafe<PreparedRow[]>(preparedOnThisConnection);
    });
    expect(found).toContainEqual({ name: prepared(text).name, runs: 2 });
    expect(found.every((row) => row.name.startsWith('mf_'))).toBe(true);
  });

  it('two texts never share a name; the same text always has the same one', () => {
    const one = prepared('SELECT 1 AS x');
    expect(prepared('SELECT 1 AS x').name).toBe(one.name);
    expect(prepared('SELECT 1 AS y').name).not.toBe(one.name);
    expect(one.name).toMatch(/^mf_[0-9a-f]{24}$/);
  });
});

describe('prepared for a simple-protocol query (PREPARE once, then EXECUTE)', () => {
  const statement = { text: `SELECT $1::text AS said, $2::int * 2 AS doubled /* execute */`, parameterTypes: ['text', 'int'] };

  it('PREPAREs once per connection; EXECUTE runs it with its values written in exactly', async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const [name] = await ensurePrepared(client, [statement]);
      expect(await ensurePrepared(client, [statement])).toEqual([name]);
      const said = `it's $1 ); DROP TABLE members; --`;
      const results = (await client.query(`SELECT 1; ${executeText(name, statement, [said, 21])}`)) as unknown as pg.QueryResult[];
      expect(results[1].rows).toEqual([{ said, doubled: 42 }]);
      const { rows } = await client.query<PreparedRow>(preparedOnThisConnection);
      expect(rows).toEqual([{ name, runs: 1 }]);
    } finally {
      await client.end();
    }
  });

  it('a statement without parameters is prepared and executed without parentheses', async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const bare = { text: `SELECT 'bare'::text AS said`, parameterTypes: [] };
      const [name] = await ensurePrepared(client, [bare]);
      expect(executeText(name!, bare, [])).toBe(`EXECUTE ${name}`);
      const results = (await client.query(`SELECT 1; ${executeText(name!, bare, [])}`)) as unknown as pg.QueryResult[];
      expect(results[1].rows).toEqual([{ said: 'bare' }]);
    } finally {
      await client.end();
    }
  });

  it('a connection that already has it (prepared by another way) is not an error', async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const name = prepared(statement.text).name!;
      await client.query(`PREPARE ${name} (text, int) AS ${statement.text}`);
      expect(await ensurePrepared(client, [statement])).toEqual([name]);
      expect((await client.query(executeText(name, statement, ['x', 1]))).rows).toEqual([{ said: 'x', doubled: 2 }]);
    } finally {
      await client.end();
    }
  });
});

describe('at most 200 texts are named in a process', () => {
  afterAll(() => forgetPreparedForTests());

  it('the text beyond the cap is sent unnamed and still runs, on the pool and by its own text in a simple-protocol query', async () => {
    forgetPreparedForTests();
    for (let index = 0; index < 200; index += 1) expect(prepared(`SELECT ${index} AS filler`).name).toBeDefined();
    const beyond = { text: `SELECT $1::int AS beyond`, parameterTypes: ['int'] };
    expect(prepared(beyond.text).name).toBeUndefined();
    expect((await pool().query({ ...prepared(beyond.text), values: [7] })).rows).toEqual([{ beyond: 7 }]);
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const [name] = await ensurePrepared(client, [beyond]);
      expect(name).toBeNull();
      expect((await client.query(executeText(name, beyond, [8]))).rows).toEqual([{ beyond: 8 }]);
      expect((await client.query(preparedOnThisConnection)).rows).toEqual([]);
    } finally {
      await client.end();
    }
  });
});
