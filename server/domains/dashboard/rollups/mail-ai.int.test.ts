import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthenticatedActor } from '../../../core/auth/access';
import { db } from '../../../core/db';
import { createMember, type TestMember } from '../../../testing/factories';
import { createMailbox } from '../../../testing/mail-factories';
import { useTestDatabase } from '../../../testing/test-database';
import { createWorkflow } from '../../../testing/workflow-factories';
import { recordUsage } from '../../llm/usage';
import { aiFigures } from '../ai';
import { aiFiguresRawSql } from '../ai-sql';
import { mailFigures } from '../mail';
import { mailFiguresRawSql } from '../mail-sql';
import { dashboardQueryInput } from '../query';
import { mailAiReconcilers } from './mail-ai-reconcile';

await useTestDatabase();

/**
 * The mail and AI routes read hourly rollups for whole hours and raw rows elsewhere; their answers must be the raw
 * statements' answers, for every window, zone and filter, after every kind of write the rollups must follow.
 */

let member: TestMember;
let other: TestMember;
let admin: TestMember;
const boxes: { id: string; owner: TestMember }[] = [];
const workflows: { id: string; owner: TestMember }[] = [];

// Deterministic noise: the same facts on every run.
let seed = 20_261_202;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

// Facts from 1 March to 6 April 2025: Paris moves to summer time on 30 March (01:00 UTC).
const span = { from: Date.parse('2025-03-01T00:00:00Z'), to: Date.parse('2025-04-06T00:00:00Z') };
/** An instant in the span; one in three on a minute a zone's bucket boundary cuts (:00, :15, :30, :45, :59.999). */
function instant(): Date {
  const at = span.from + Math.floor(random() * (span.to - span.from));
  if (random() >= 1 / 3) return new Date(at);
  return new Date(Math.floor(at / 3_600_000) * 3_600_000 + pick([0, 15, 30, 45]) * 60_000 + pick([0, 59_999]));
}

const outcomes = ['excluded_org', 'excluded_member', 'guardrail', 'unmatched', 'dispatched'] as const;
const models = [
  ['openai', 'gpt-4o-mini'],
  ['anthropic', 'claude-sonnet-4'],
  ['ollama', 'llama3.1:8b'],
] as const;

function journalRow(at = instant()) {
  const box = pick(boxes);
  return { memberId: box.owner.id, mailboxId: box.id, messageId: randomUUID(), outcome: pick(outcomes), automated: random() < 0.3, createdAt: at };
}

function usageRow(at = instant()) {
  const owner = pick([member, other, admin]);
  const [provider, model] = pick(models);
  const mine = workflows.filter((workflow) => workflow.owner.id === owner.id);
  return {
    connectionId: null,
    credentialId: random() < 0.2 ? randomUUID() : null,
    provider,
    model,
    purpose: pick(['classify', 'draft', 'assistant']),
    // Some calls outlive their member (null) or belong to no workflow.
    memberId: random() < 0.1 ? null : owner.id,
    workflowId: mine.length && random() < 0.6 ? pick(mine).id : null,
    inputTokens: Math.floor(random() * 4000),
    outputTokens: Math.floor(random() * 900),
    reasoningTokens: model === 'claude-sonnet-4' ? Math.floor(random() * 300) : 0,
    // Prices with more decimals than a cent, so float sums carry dust; a local model is never priced.
    costUsd: provider === 'ollama' ? null : Math.round(random() * 1e7) / 1e9,
    createdAt: at,
  };
}

const actorOf = (who: TestMember): AuthenticatedActor => ({
  kind: 'session',
  sessionId: 'test',
  member: { id: who.id, email: who.email, name: who.name, role: who.role, createdAt: new Date() },
});

interface Case {
  name: string;
  who: () => TestMember;
  query: () => Record<string, string>;
}

const zones = ['UTC', 'Europe/Paris', 'Asia/Kolkata', 'Asia/Kathmandu'];
const windows = [
  // Day buckets across Paris's change to summer time, whole-hour edges.
  { from: '2025-03-20T00:00:00Z', to: '2025-04-03T00:00:00Z' },
  // Day buckets, edges inside hours (a rolling preset's shape: to the millisecond).
  { from: '2025-03-05T07:31:12.345Z', to: '2025-04-04T19:44:59.999Z' },
  // Hour buckets across the change (47 hours), edges at :17 and :05.
  { from: '2025-03-29T10:17:23.456Z', to: '2025-03-31T09:05:00Z' },
  // Shorter than an hour: all raw.
  { from: '2025-03-30T00:40:00Z', to: '2025-03-30T01:20:00Z' },
];
const audiences: { name: string; who: () => TestMember; query: () => Record<string, string> }[] = [
  { name: 'org', who: () => admin, query: () => ({ scope: 'org' }) },
  { name: 'org memberId', who: () => admin, query: () => ({ scope: 'org', memberId: member.id }) },
  { name: 'me', who: () => member, query: () => ({}) },
  { name: 'me mailboxId', who: () => member, query: () => ({ mailboxId: boxes[1]!.id }) },
  { name: 'me workflowId', who: () => member, query: () => ({ workflowId: workflows[0]!.id }) },
];

const cases: Case[] = windows.flatMap((window) =>
  zones.flatMap((tz) =>
    audiences.map((audience) => ({
      name: `${window.from}→${window.to} ${tz} ${audience.name}`,
      who: audience.who,
      query: () => ({ period: 'custom', from: window.from, to: window.to, tz, ...audience.query() }),
    })),
  ),
);

/**
 * The same answer: every figure equal, money included, except that an amount may differ by one unit of its last
 * presented place (1e-6 USD). That is the case only when the exact sum lies on a half micro-dollar: the rollup adds
 * exactly (numeric) and rounds it up, while the raw statement's sum of doubles lands a dust either side of the half
 * depending on the order it happened to add the rows in (two runs of the raw statement itself can disagree there).
 */
function sameFigures(a: unknown, b: unknown, money = false): boolean {
  if (typeof a === 'number' && typeof b === 'number') return money ? Math.abs(a - b) <= 1.000001e-6 : a === b;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => sameFigures(item, b[index], money));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const [left, right] = [a as Record<string, unknown>, b as Record<string, unknown>];
    const keys = Object.keys(left);
    return (
      JSON.stringify(keys) === JSON.stringify(Object.keys(right)) &&
      keys.every((key) => sameFigures(left[key], right[key], money || /usd$/i.test(key)))
    );
  }
  return a === b;
}

/** Every case's route answer next to the raw statements' answer; the differing cases' names. */
async function disagreements(): Promise<string[]> {
  const differing: string[] = [];
  for (const item of cases) {
    const query = dashboardQueryInput.parse(item.query());
    const actor = actorOf(item.who());
    const [mail, mailRaw, ai, aiRaw] = await Promise.all([
      mailFigures(actor, query),
      mailFigures(actor, query, mailFiguresRawSql),
      aiFigures(actor, query),
      aiFigures(actor, query, aiFiguresRawSql),
    ]);
    if (!sameFigures(mail, mailRaw)) differing.push(`mail ${item.name}`);
    if (!sameFigures(ai, aiRaw)) differing.push(`ai ${item.name}`);
  }
  return differing;
}

/** How many calls / entries the org sees in a window, raw: proof that the facts under test are in the windows. */
async function orgFigures() {
  const query = dashboardQueryInput.parse({ period: 'custom', from: windows[0]!.from, to: windows[0]!.to, scope: 'org' });
  return { mail: await mailFigures(actorOf(admin), query), ai: await aiFigures(actorOf(admin), query) };
}

const wholeHistory = [new Date('2000-01-01T00:00:00Z'), new Date('2100-01-01T00:00:00Z')] as const;
const reconcileAll = async () => {
  let fixed = 0;
  for (const reconciler of mailAiReconcilers) fixed += await reconciler.reconcile(db(), ...wholeHistory);
  return fixed;
};

beforeAll(async () => {
  member = await createMember();
  other = await createMember();
  admin = await createMember({ role: 'admin' });
  for (const owner of [member, member, other, admin]) boxes.push({ id: (await createMailbox(owner)).id, owner });
  const versions: string[] = [];
  for (const owner of [member, member, other]) {
    const created = await createWorkflow(owner, { name: 'Flow' });
    workflows.push({ id: created.workflow.id, owner });
    versions.push(created.version!.id);
  }
  await db().mailJournalEntry.createMany({ data: Array.from({ length: 600 }, () => journalRow()) });
  // Runs of the member's first workflow on some of the member's mail (the workflowId filter): real runs, a replay
  // (a second run of the same message), test runs that do not count.
  const mine = await db().mailJournalEntry.findMany({ where: { memberId: member.id }, orderBy: { createdAt: 'asc' }, take: 90 });
  const run = (messageId: string, simulated = false) => ({ memberId: member.id, workflowId: workflows[0]!.id, workflowVersionId: versions[0]!, timeoutMs: 1000, status: 'succeeded', messageId, simulated, holdsSlot: !simulated });
  await db().execution.createMany({
    data: [...mine.slice(0, 70).map((entry) => run(entry.messageId)), ...mine.slice(0, 10).map((entry) => run(entry.messageId)), ...mine.slice(70).map((entry) => run(entry.messageId, true))],
  });
  await db().llmUsage.createMany({ data: Array.from({ length: 600 }, () => usageRow()) });
}, 60_000);

describe('the mail and AI figures from hourly rollups', () => {
  it('answer what the raw rows answer, for every window, zone (UTC, Paris across summer time, Kolkata, Kathmandu) and filter', async () => {
    const { mail, ai } = await orgFigures();
    expect(mail.current.received).toBeGreaterThan(100);
    const byWorkflow = await mailFigures(actorOf(member), dashboardQueryInput.parse({ period: 'custom', from: windows[1]!.from, to: windows[1]!.to, workflowId: workflows[0]!.id }));
    expect(byWorkflow.current.received + byWorkflow.previous.received).toBeGreaterThan(10);
    expect(ai.current.calls).toBeGreaterThan(100);
    expect(ai.current.unpricedCalls).toBeGreaterThan(0);
    expect(await disagreements()).toEqual([]);
    // The triggers kept the rollups exactly: nothing to reconcile.
    expect(await reconcileAll()).toBe(0);
  }, 120_000);

  it('a rolled-back write leaves the rollups as they were (the trigger runs in the writer’s transaction)', async () => {
    const before = await orgFigures();
    await expect(
      db().$transaction(async (tx) => {
        await tx.mailJournalEntry.createMany({ data: Array.from({ length: 20 }, () => journalRow(new Date('2025-03-25T12:00:00Z'))) });
        await tx.llmUsage.createMany({ data: Array.from({ length: 20 }, () => usageRow(new Date('2025-03-25T12:00:00Z'))) });
        throw new Error('crash mid-transaction');
      }),
    ).rejects.toThrow('crash mid-transaction');
    expect(await orgFigures()).toEqual(before);
    expect(await reconcileAll()).toBe(0);
  }, 60_000);

  it('follows updates, deletions and calls recorded by the usage path, with Prisma or direct SQL', async () => {
    const before = await orgFigures();
    // The usage path records a call now; moved into the window (an update of created_at), with a price learnt later.
    const recorded = await recordUsage({ connectionId: null, provider: 'openai', model: 'gpt-4o-mini', purpose: 'classify', memberId: member.id, workflowId: workflows[0]!.id, inputTokens: 100, outputTokens: 10, reasoningTokens: 0 });
    await db().llmUsage.update({ where: { id: recorded.id }, data: { createdAt: new Date('2025-03-25T12:30:00Z'), costUsd: 0.1 } });
    await db().llmUsage.update({ where: { id: recorded.id }, data: { costUsd: 0.2 } });
    // A journal entry whose outcome changes long after it was written, another moved to another mailbox.
    const [first, second] = await db().mailJournalEntry.findMany({ where: { createdAt: { gte: new Date(windows[0]!.from), lt: new Date(windows[0]!.to) } }, orderBy: { createdAt: 'asc' }, take: 2 });
    await db().mailJournalEntry.update({ where: { id: first!.id }, data: { outcome: first!.outcome === 'dispatched' ? 'unmatched' : 'dispatched', automated: !first!.automated } });
    await db().mailJournalEntry.update({ where: { id: second!.id }, data: { mailboxId: boxes[1]!.id, memberId: member.id } });
    // An update that changes no counted column touches nothing.
    await db().mailJournalEntry.update({ where: { id: second!.id }, data: { ruleRef: 'rule-1' } });
    // Deletions: a tenth of each, through Prisma and through SQL.
    await db().mailJournalEntry.deleteMany({ where: { outcome: 'guardrail', createdAt: { lt: new Date('2025-03-26T00:00:00Z') } } });
    await db().$executeRawUnsafe(`DELETE FROM llm_usage WHERE id IN (SELECT id FROM llm_usage ORDER BY created_at LIMIT 60)`);
    // Direct SQL writes: rows inserted and updated without Prisma (a member's calls losing their member).
    await db().$executeRawUnsafe(
      `INSERT INTO mail_journal_entries (id, member_id, mailbox_id, message_id, outcome, automated, created_at)
       SELECT gen_random_uuid(), $1::uuid, $2::uuid, gen_random_uuid(), 'dispatched', g % 2 = 0, $3::timestamptz + g * interval '17 minutes'
         FROM generate_series(1, 40) g`,
      member.id,
      boxes[0]!.id,
      new Date('2025-03-29T20:00:00Z'),
    );
    await db().$executeRawUnsafe(
      `INSERT INTO llm_usage (id, provider, model, purpose, member_id, input_tokens, output_tokens, cost_usd, created_at)
       SELECT gen_random_uuid(), 'openai', 'gpt-4o-mini', 'draft', $1::uuid, 100 * g, g, 0.1 * g, $2::timestamptz + g * interval '23 minutes'
         FROM generate_series(1, 40) g`,
      member.id,
      new Date('2025-03-29T20:00:00Z'),
    );
    await db().$executeRawUnsafe(`UPDATE llm_usage SET member_id = NULL WHERE member_id = $1::uuid AND purpose = 'assistant'`, other.id);

    const after = await orgFigures();
    expect(after.mail.current.received).not.toBe(before.mail.current.received);
    expect(after.ai.current.calls).not.toBe(before.ai.current.calls);
    expect(await disagreements()).toEqual([]);
    expect(await reconcileAll()).toBe(0);
  }, 180_000);

  it('a corrupted or wiped rollup disagrees with the raw rows until the reconcilers repair it, reporting the rows they fixed', async () => {
    // Corruption: a wrong count, a lost row, a row whose raw rows do not exist.
    await db().$executeRawUnsafe(`UPDATE dashboard_journal_hours SET entries = entries + 5 WHERE (hour, member_id, mailbox_id, outcome) IN (SELECT hour, member_id, mailbox_id, outcome FROM dashboard_journal_hours WHERE entries > 0 AND hour >= '2025-03-21' ORDER BY hour LIMIT 1)`);
    await db().$executeRawUnsafe(`DELETE FROM dashboard_llm_hours WHERE ctid IN (SELECT ctid FROM dashboard_llm_hours WHERE calls > 0 AND hour >= '2025-03-21' AND hour < '2025-04-02' ORDER BY hour LIMIT 2)`);
    await db().$executeRawUnsafe(`INSERT INTO dashboard_llm_model_hours (hour, member_id, provider, model, calls, cost_usd) VALUES ('2025-03-22T05:00:00Z', $1::uuid, 'openai', 'ghost', 3, 1.5)`, member.id);
    await db().$executeRawUnsafe(`UPDATE dashboard_llm_purpose_hours SET cost_usd = cost_usd + 0.25 WHERE ctid IN (SELECT ctid FROM dashboard_llm_purpose_hours WHERE calls > 0 AND hour >= '2025-03-21' ORDER BY hour LIMIT 1)`);
    expect((await disagreements()).length).toBeGreaterThan(0);
    expect(await reconcileAll()).toBe(5);
    expect(await disagreements()).toEqual([]);

    // Wiped: both rollups emptied, then rebuilt from the raw rows alone.
    const rollups = ['dashboard_journal_hours', 'dashboard_llm_hours', 'dashboard_llm_model_hours', 'dashboard_llm_purpose_hours'];
    const rows = async () => (await db().$queryRawUnsafe<{ n: number }[]>(`SELECT (${rollups.map((table) => `(SELECT count(*) FROM ${table} WHERE ${table === 'dashboard_journal_hours' ? 'entries' : 'calls'} <> 0)`).join(' + ')})::int AS n`))[0]!.n;
    const kept = await rows();
    for (const table of rollups) await db().$executeRawUnsafe(`DELETE FROM ${table}`);
    expect((await disagreements()).length).toBeGreaterThan(0);
    expect(await reconcileAll()).toBe(kept);
    expect(await disagreements()).toEqual([]);
    expect(await reconcileAll()).toBe(0);
  }, 240_000);

  it('reconciles only the hours it is given', async () => {
    await db().$executeRawUnsafe(`UPDATE dashboard_journal_hours SET entries = entries + 1 WHERE hour >= '2025-03-10' AND hour < '2025-03-11' AND entries > 0`);
    const [{ n }] = await db().$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM dashboard_journal_hours WHERE hour >= '2025-03-10' AND hour < '2025-03-11' AND entries > 0`);
    expect(n).toBeGreaterThan(0);
    const [journal] = mailAiReconcilers;
    expect(await journal!.reconcile(db(), new Date('2025-03-10T12:00:00Z'), new Date('2025-03-11T00:00:00Z'))).toBeGreaterThan(0);
    expect(await journal!.reconcile(db(), new Date('2025-03-01T00:00:00Z'), new Date('2025-03-10T12:00:00Z'))).toBeGreaterThan(0);
    expect(await reconcileAll()).toBe(0);
  }, 60_000);
});
