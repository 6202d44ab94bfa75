/**
 * An AI step's usage row (recordCallUsage): written as accounting in one statement whose commit does not wait for
 * the WAL flush, costed at the prices read beside the call, the same row recordUsage writes. Observed from inside the
 * statement by a trigger on this file's own database (set to wait for flushes, as a production one is; the test
 * server does not), and the pool's connections checked after it: the setting must not outlive the statement.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { db, pool } from '../../core/db';
import { createMember } from '../../testing/factories';
import { useTestDatabase } from '../../testing/test-database';
import { pricesOfModel, recordCallUsage, recordUsage, type UsageRecord } from './usage';

const url = await useTestDatabase();
{
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET synchronous_commit = on', current_database()); END $$`);
  await admin.end();
}

beforeAll(async () => {
  expect((await pool().query<{ value: string }>(`SELECT current_setting('synchronous_commit') AS value`)).rows[0]!.value).toBe('on');
  await db().$executeRawUnsafe(`CREATE TABLE usage_commit_probe (seq serial, synchronous_commit text)`);
  await db().$executeRawUnsafe(`
    CREATE FUNCTION record_usage_commit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO usage_commit_probe (synchronous_commit) VALUES (current_setting('synchronous_commit'));
      RETURN NULL;
    END $$`);
  await db().$executeRawUnsafe(`CREATE TRIGGER record_usage_commit AFTER INSERT ON llm_usage FOR EACH ROW EXECUTE FUNCTION record_usage_commit()`);
  await db().llmPrice.createMany({
    data: [
      { provider: 'ai_vendor_a', model: 'gpt-4.1-mini', inputUsdPerMillion: 0.4, outputUsdPerMillion: 1.6 },
      { provider: 'ai_vendor_b', model: '*', inputUsdPerMillion: 3, outputUsdPerMillion: 15 },
    ],
  });
});

afterAll(async () => {
  await db().$disconnect();
});

async function probed(): Promise<string[]> {
  const rows = await db().$queryRawUnsafe<Array<{ seq: number; synchronous_commit: string }>>(`DELETE FROM usage_commit_probe RETURNING seq, synchronous_commit`);
  return rows.sort((a, b) => a.seq - b.seq).map((row) => row.synchronous_commit);
}

function callOf(memberId: string, overrides: Partial<UsageRecord> = {}): UsageRecord {
  return {
    connectionId: null,
    provider: 'ai_vendor_a',
    model: 'gpt-4.1-mini',
    purpose: 'classify',
    memberId,
    workflowId: null,
    executionId: null,
    stepId: 'classify',
    inputTokens: 1_000_000,
    outputTokens: 500_000,
    reasoningTokens: 0,
    ...overrides,
  };
}

it("an AI step's usage row commits without waiting for its WAL flush, and leaves every connection as the server has it", async () => {
  const member = await createMember();
  const call = callOf(member.id);
  const recorded = await recordCallUsage(call, await pricesOfModel(call.provider, call.model));
  expect(await probed()).toEqual(['off']);
  // 1,000,000 input tokens at 0.4 and 500,000 output at 1.6 a million.
  expect(recorded.costUsd).toBeCloseTo(1.2, 9);
  const after = await Promise.all(Array.from({ length: 4 }, () => pool().query<{ value: string }>(`SELECT current_setting('synchronous_commit') AS value`)));
  expect(after.map((result) => result.rows[0]!.value)).toEqual(['on', 'on', 'on', 'on']);
  // Other usage rows (the assistant's, the analyzer's) still wait.
  await recordUsage(callOf(member.id));
  expect(await probed()).toEqual(['on']);
});

it('writes the row recordUsage writes: the same columns, a provider-wide price, tokens bounded, no price no cost', async () => {
  const member = await createMember();
  const calls = [
    callOf(member.id, { provider: 'ai_vendor_b', model: 'any-model', purpose: 'extract', inputTokens: 2_000, outputTokens: 100, reasoningTokens: -5, stepId: 'extract' }),
    callOf(member.id, { model: 'unpriced-model', inputTokens: 1e12, outputTokens: Number.NaN, credentialId: null, conversationId: null }),
  ];
  const stepRows = [];
  for (const call of calls) {
    const viaStep = await recordCallUsage(call, await pricesOfModel(call.provider, call.model));
    const viaRecord = await recordUsage(call);
    const [stepRow, recordRow] = await Promise.all([viaStep, viaRecord].map(({ id }) => db().llmUsage.findUniqueOrThrow({ where: { id } })));
    const { id: _stepId, createdAt: _stepAt, ...stepColumns } = stepRow!;
    const { id: _recordId, createdAt: _recordAt, ...recordColumns } = recordRow!;
    expect(stepColumns).toEqual(recordColumns);
    expect(viaStep.costUsd).toBe(viaRecord.costUsd);
    stepRows.push(stepRow!);
  }
  const [priced, unpriced] = stepRows;
  expect(priced).toMatchObject({ provider: 'ai_vendor_b', purpose: 'extract', inputTokens: 2_000, outputTokens: 100, reasoningTokens: 0 });
  expect(priced!.costUsd).toBeCloseTo((2_000 * 3 + 100 * 15) / 1e6, 12);
  expect(unpriced).toMatchObject({ inputTokens: 2_147_483_647, outputTokens: 0, costUsd: null });
});
