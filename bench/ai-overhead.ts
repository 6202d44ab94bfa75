/**
 * AI node overhead (issue 11): an `ai.classify` step's executor through the real `ai` capability
 * (routing snapshot, budget check, the provider layer's call with the network guard, structured
 * output validation, the usage row with its cost) against an instant local fake vendor, next to the
 * floor measured in the same run: the bare AI SDK call to the same fake (server/testing/ai-fakes/
 * bench-kit.ts `startOverheadPair`). Interleaved one call at a time; prints p50/p95 of both, the
 * provider layer alone, and the overhead. Target: overhead p50 ≤ 5 ms (PASS/MISS, never an exit code).
 *
 *   npx tsx bench/ai-overhead.ts          (alone, with its own temporary database)
 *   BENCH_AI=0 npm run bench             (skips it in the full bench)
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { runSectionAlone } from './database';
import { fixed, spread, table } from './stats';

const targetOverheadP50Ms = 5;

export async function runAiOverheadBench(options: { databaseUrl: string; log: (message: string) => void; calls?: number }): Promise<{ overheadP50Ms: number }> {
  const { log } = options;
  const calls = options.calls ?? (Number(process.env.BENCH_AI_CALLS) || 300);
  log(`\nai.classify through the ai capability vs the bare AI SDK: ${calls} calls each to an instant local fake, interleaved, one at a time`);
  process.env.DATABASE_URL = options.databaseUrl;
  process.env.ENCRYPTION_KEY ??= `bench-instance-key-${randomUUID()}`;
  process.env.LOG_LEVEL ??= 'warn';
  const { resetConfigForTests } = await import('../server/core/config');
  resetConfigForTests();
  const { db, disconnectDb } = await import('../server/core/db');
  const { seal } = await import('../server/core/crypto/secret-box');
  const { keyPurposeOf } = await import('../server/domains/llm/repo');
  const { fakeNet } = await import('../server/testing/ai-fakes');
  const { startOverheadPair } = await import('../server/testing/ai-fakes/bench-kit');
  const { createAiCapability } = await import('../server/engine-adapters/ai');
  const { aiClassifyNode } = await import('../server/engine/nodes/ai/classify.node.ts');

  const pair = await startOverheadPair('fake-model');
  const connection = await db().llmConnection.create({ data: { provider: 'ai_vendor_a', label: `Bench ${randomUUID().slice(0, 8)}`, baseUrl: `${pair.server.origin}/v1`, isDefault: true, enabledModels: ['fake-model'] } });
  await db().llmConnection.update({ where: { id: connection.id }, data: { apiKeyEnc: seal('bench-key', keyPurposeOf(connection.id)) } });
  await db().llmPrice.upsert({ where: { provider_model: { provider: 'ai_vendor_a', model: 'fake-model' } }, create: { provider: 'ai_vendor_a', model: 'fake-model', inputUsdPerMillion: 1, outputUsdPerMillion: 2 }, update: {} });
  const memberId = randomUUID();
  const executionId = randomUUID();
  const ai = createAiCapability({ memberId, workflowId: randomUUID(), executionId, stepId: randomUUID(), simulated: false, net: fakeNet });
  const params = aiClassifyNode.params.parse({ labels: [{ name: 'invoice' }, { name: 'other' }], text: 'Classify this mail.', writeClassification: false });
  const unused = () => {
    throw new Error('not used by ai.classify here');
  };
  const step = async () => {
    pair.server.reply({ kind: 'json', value: { label: 'invoice', confidence: 0.9 } });
    await aiClassifyNode.execute({
      params,
      input: { main: {} },
      nodes: {},
      trigger: null,
      execution: { id: executionId, memberId, workflowId: 'bench', workflowVersionId: 'bench', simulated: false, mailboxId: null, messageId: null, triggerType: 'trigger.webhook' },
      node: { id: 'classify', name: 'Classify' },
      attempt: 1,
      signal: AbortSignal.timeout(30_000),
      state: null,
      resume: null,
      effect: unused as never,
      capabilities: { ai, mail: { threadContext: async () => [], classify: async () => false } } as never,
      children: { start: unused, list: unused } as never,
      now: () => new Date(),
    });
  };
  const sides = {
    step,
    layer: async () => {
      pair.server.reply({ kind: 'text', text: 'invoice' });
      await pair.viaLayer();
    },
    bare: async () => {
      pair.server.reply({ kind: 'text', text: 'invoice' });
      await pair.viaBareSdk();
    },
  };
  const times: Record<keyof typeof sides, number[]> = { step: [], layer: [], bare: [] };
  try {
    // Warm-up (JIT, connections, prepared statements), not measured.
    for (let index = 0; index < 30; index += 1) for (const side of Object.values(sides)) await side();
    const started = performance.now();
    const names = Object.keys(sides) as (keyof typeof sides)[];
    for (let index = 0; index < calls; index += 1) {
      // Rotate the order so no side always runs right after another.
      for (let offset = 0; offset < names.length; offset += 1) {
        const name = names[(index + offset) % names.length];
        const t0 = performance.now();
        await sides[name]();
        times[name].push(performance.now() - t0);
      }
    }
    const elapsed = performance.now() - started;
    const step50 = spread(times.step);
    const layer50 = spread(times.layer);
    const bare50 = spread(times.bare);
    for (const line of table([
      ['  path', 'p50 ms', 'p95 ms', 'max ms'],
      ['  ai.classify step (capability)', fixed(step50.p50, 2), fixed(step50.p95, 2), fixed(step50.max, 2)],
      ['  provider layer callModel', fixed(layer50.p50, 2), fixed(layer50.p95, 2), fixed(layer50.max, 2)],
      ['  floor: bare AI SDK', fixed(bare50.p50, 2), fixed(bare50.p95, 2), fixed(bare50.max, 2)],
    ]))
      log(line);
    const overhead = step50.p50 - bare50.p50;
    log(`  overhead p50 ${fixed(overhead, 2)} ms (step / floor p50 ${fixed(step50.p50 / bare50.p50, 2)}×; layer alone +${fixed(layer50.p50 - bare50.p50, 2)} ms; p95 +${fixed(step50.p95 - bare50.p95, 2)} ms)`);
    log(`  ${calls} × 3 calls in ${fixed(elapsed / 1000)} s; load average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}`);
    log(`  ${overhead <= targetOverheadP50Ms ? 'PASS' : 'MISS'}  ai.classify step overhead p50 ≤ ${targetOverheadP50Ms} ms: ${fixed(overhead, 2)} ms (timing is noisy: information, not an exit code)`);
    return { overheadP50Ms: overhead };
  } finally {
    await pair.close();
    await db().llmUsage.deleteMany({ where: { executionId } });
    await db().llmConnection.delete({ where: { id: connection.id } });
    await disconnectDb();
  }
}

await runSectionAlone(import.meta.url, runAiOverheadBench);
