/**
 * The analyzer's run: exact statistics and groups on a seeded mirror and journal, the model phase
 * against the fake vendor (a batch failing, every batch failing), no provider, nothing to analyze,
 * and installing an opportunity's draft through the route.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { resetConfigForTests } from '../../../core/config';
import { db } from '../../../core/db';
import { realtimeNotification } from '../../../core/realtime/emit';
import { reportBodySchema } from '../schemas';
import { fakeNet, startFakeVendor, type FakeVendorServer } from '../../../testing/ai-fakes';
import { createMember, type TestMember } from '../../../testing/factories';
import { createMailbox, createMessage } from '../../../testing/mail-factories';
import { call } from '../../../testing/rest-client';
import { useTestDatabase } from '../../../testing/test-database';
import { jobKeys } from '../../../core/jobs/catalogue';
import { jobPending } from '../../../core/jobs/enqueue';
import { bodyPassWaitMs, runAnalysis } from './analyze';
import { countGroupMessages } from './repo-statistics';

const databaseUrl = await useTestDatabase();

const day = 86_400_000;
const now = new Date();
const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
/** `days` full days before today (UTC) at `hour` UTC: always in the past. */
const at = (days: number, hour: number) => new Date(today - days * day + hour * 3_600_000);

let owner: TestMember;
let vendor: FakeVendorServer;

async function analysisOf(mailboxId: string, options: { windowDays?: number; minGroupVolume?: number } = {}) {
  const row = await db().mailboxAnalysis.create({
    data: { mailboxId, memberId: owner.id, windowDays: options.windowDays ?? 30, minGroupVolume: options.minGroupVolume ?? 5 },
  });
  return row.id;
}

async function connect() {
  await db().llmConnection.deleteMany();
  await db().llmConnection.create({
    data: { provider: 'ai_generic_compatible', label: 'Fake', baseUrl: `${vendor.origin}/v1`, enabledModels: ['fake-model'], isDefault: true, withoutApiKey: true },
  });
}

/** A mailbox whose mirror and journal give known figures (see the expectations below). */
async function seededMailbox() {
  const mailbox = await createMailbox(owner);
  const senders = ['a@news.example', 'a@news.example', 'a@news.example', 'b@news.example', 'b@news.example', 'c@news.example'];
  for (const [index, fromEmail] of senders.entries()) await createMessage(mailbox, { fromEmail, subject: `Weekly digest ${index + 1}`, receivedAt: at(index + 1, 9) });
  for (let index = 0; index < 5; index += 1) {
    await createMessage(mailbox, { fromEmail: 'Billing@Shop.example', subject: `Invoice ${100 + index}`, hasAttachments: true, receivedAt: at(20, 14) });
  }
  await createMessage(mailbox, { fromEmail: 'x@old.example', subject: 'Hello', receivedAt: at(60, 3) });
  await createMessage(mailbox, { fromEmail: 'x@old.example', subject: 'Hello', receivedAt: at(61, 3) });
  await createMessage(mailbox, { fromEmail: 'y@old.example', subject: 'Hello', receivedAt: at(200, 3) });
  await createMessage(mailbox, { fromEmail: 'z@old.example', subject: 'Hello', receivedAt: at(400, 3) });
  // Not incoming mail: sent by the mailbox, a draft.
  const sent = await createMessage(mailbox, { fromEmail: 'me@example.test', subject: 'Sent', receivedAt: at(2, 9) });
  const draft = await createMessage(mailbox, { fromEmail: 'me@example.test', subject: 'Draft', receivedAt: at(2, 9) });
  await db().mailMessage.update({ where: { id: sent.id }, data: { sent: true } });
  await db().mailMessage.update({ where: { id: draft.id }, data: { draft: true } });
  await db().mailMessage.updateMany({ where: { mailboxId: mailbox.id, fromEmail: { in: ['a@news.example', 'b@news.example'] } }, data: { isMailingList: true } });
  // c's digest carries `Precedence: bulk` but no list header: bulk mail, which a list-including trigger lets through too.
  await db().mailMessage.updateMany({ where: { mailboxId: mailbox.id, fromEmail: 'c@news.example' }, data: { isBulk: true } });
  // One mailing list (as ingest stores List-Id) for a's and b's digests: a list group of 5 messages, 2 senders.
  await db().mailMessage.updateMany({ where: { mailboxId: mailbox.id, fromEmail: { in: ['a@news.example', 'b@news.example'] } }, data: { listId: 'digest.news.example' } });
  const journal = (outcome: string, createdAt: Date) => ({ memberId: owner.id, mailboxId: mailbox.id, messageId: randomUUID(), outcome, createdAt });
  await db().mailJournalEntry.createMany({
    data: [
      journal('dispatched', at(1, 1)),
      journal('dispatched', at(2, 1)),
      journal('dispatched', at(3, 1)),
      journal('unmatched', at(4, 1)),
      journal('unmatched', at(5, 1)),
      journal('excluded_org', at(6, 1)),
      journal('excluded_member', at(7, 1)),
      journal('guardrail', at(8, 1)),
      journal('dispatched', at(40, 1)),
    ],
  });
  return mailbox;
}

const expectedStats = {
  received30d: 8,
  excluded30d: 2,
  unmatched30d: 2,
  dispatched30d: 3,
  messages30d: 11,
  messages90d: 13,
  messages365d: 14,
  senders: 4,
  domains: 2,
  groups: 5,
};

beforeAll(async () => {
  owner = await createMember({ role: 'admin' });
  vendor = await startFakeVendor('openai');
});

afterAll(async () => {
  await vendor?.close();
});

async function bodyOf(id: string) {
  const row = await db().mailboxAnalysis.findUniqueOrThrow({ where: { id } });
  return { row, body: reportBodySchema.parse(row.body) };
}

describe('runAnalysis', () => {
  it('computes every statistic and the groups exactly; no provider: statistics still produced', async () => {
    await db().llmConnection.deleteMany();
    const mailbox = await seededMailbox();
    const id = await analysisOf(mailbox.id);
    await runAnalysis(id, { net: fakeNet });
    const { row, body } = await bodyOf(id);
    expect(row.status).toBe('done');
    expect(row.finishedAt).not.toBeNull();
    expect(body.stats).toMatchObject({ ...expectedStats, groupsAnalyzed: 0, llmOutcome: { status: 'no_provider' } });
    expect(row.llmOutcome).toEqual({ status: 'no_provider' });
    expect(body.stats.peakHours).toHaveLength(24);
    expect(body.stats.peakHours.filter((item) => item.volume > 0)).toEqual([
      { hour: 9, volume: 6 },
      { hour: 14, volume: 5 },
    ]);
    expect(body.groups.map((group) => [group.key, group.volume, group.senders])).toEqual([
      ['domain:news.example', 6, 3],
      ['domain:shop.example', 5, 1],
      ['list:digest.news.example', 5, 2],
      ['subject:weekly digest #', 6, 3],
      ['subject:invoice #', 5, 1],
    ]);
    expect(body.groups[0]).toMatchObject({ topSenders: ['a@news.example', 'b@news.example', 'c@news.example'], mailingListShare: 1, noReplyShare: 0 });
    expect(body.groups[0].sampleSubjects).toEqual(['Weekly digest 1', 'Weekly digest 2', 'Weekly digest 3']);
    expect(body.groups[1]).toMatchObject({ attachmentShare: 1, mailingListShare: 0, topSenders: ['billing@shop.example'] });
    expect(body.groups[2]).toMatchObject({
      kind: 'list',
      label: 'digest.news.example',
      topSenders: ['a@news.example', 'b@news.example'],
      sampleSubjects: ['Weekly digest 1', 'Weekly digest 2', 'Weekly digest 3'],
      mailingListShare: 1,
    });
    expect(body.opportunities).toEqual([]);
    const listed = await call('GET', '/api/v1/mailboxes', { cookie: owner.cookie });
    expect(listed.body.mailboxes.find((item: { id: string }) => item.id === mailbox.id).analyzedAt).toBe(row.finishedAt?.toISOString());
    // A wider window sees the older mail; the 30/90/365-day figures do not move.
    const wide = await analysisOf(mailbox.id, { windowDays: 90, minGroupVolume: 2 });
    await runAnalysis(wide, { net: fakeNet });
    const widened = (await bodyOf(wide)).body;
    expect(widened.stats).toMatchObject({ messages30d: 11, messages90d: 13, senders: 5, domains: 3 });
    expect(widened.groups.map((group) => group.key)).toContain('domain:old.example');
    expect(widened.groups.map((group) => group.key)).toContain('subject:hello');
  });

  it('nothing_to_analyze when no group reaches the volume', async () => {
    await connect();
    const mailbox = await createMailbox(owner);
    await createMessage(mailbox, { fromEmail: 'one@solo.example', subject: 'Once', receivedAt: at(1, 10) });
    const id = await analysisOf(mailbox.id);
    // The member's browser hears the progress live: each phase, then the end.
    const listener = new pg.Client({ connectionString: databaseUrl });
    await listener.connect();
    const heard: { phase: string | null; status: string }[] = [];
    listener.on('notification', (message) => {
      const text = message.payload ?? '';
      const found = /"analysisId":"[^"]+","mailboxId":"[^"]+","status":"([a-z]+)","phase":(null|"[a-z]+")/.exec(text);
      if (found) heard.push({ status: found[1], phase: found[2] === 'null' ? null : found[2].slice(1, -1) });
    });
    const { channel } = realtimeNotification(owner.id, 'analyzer.progress', { analysisId: id, mailboxId: mailbox.id, status: 'x', phase: null, batchesDone: 0, batches: 0 });
    await listener.query(`LISTEN "${channel}"`);
    await runAnalysis(id, { net: fakeNet });
    await vi.waitFor(() => expect(heard).toHaveLength(4));
    await listener.end();
    expect(heard.map((item) => item.phase ?? item.status)).toEqual(['statistics', 'groups', 'model', 'done']);
    const { row, body } = await bodyOf(id);
    expect(row.status).toBe('done');
    expect(body.stats).toMatchObject({ messages30d: 1, senders: 1, domains: 1, groups: 0, groupsAnalyzed: 0, llmOutcome: { status: 'nothing_to_analyze' } });
    expect(vendor.requests).toHaveLength(0);
  });

  it('asked while the body pass still has listed rows to fill, waits for it (a newsletter then reads as one); past the bound, or for a disconnected mailbox, counts what the mirror has', async () => {
    await db().llmConnection.deleteMany();
    const mailbox = await createMailbox(owner);
    // A large first sync listed these from their headers: sender and subject, no list or bulk signal yet.
    for (let index = 0; index < 6; index += 1) {
      const message = await createMessage(mailbox, { fromEmail: 'letters@digest.example', subject: `Digest #${index}`, receivedAt: at(index + 1, 7) });
      await db().mailMessage.update({ where: { id: message.id }, data: { bodyPending: true, bodyComplete: false, bodyText: null } });
    }
    const id = await analysisOf(mailbox.id);
    await runAnalysis(id);
    const waitingRow = await db().mailboxAnalysis.findUniqueOrThrow({ where: { id } });
    expect(waitingRow).toMatchObject({ status: 'running', progress: { phase: 'mail_sync' }, body: null });
    expect(await jobPending(jobKeys.analysis(id))).toBe(true);

    // The pass fills the rows (their List-Id read from the whole header), and the analysis comes back.
    await db().mailMessage.updateMany({ where: { mailboxId: mailbox.id }, data: { bodyPending: false, bodyComplete: true, isMailingList: true, listId: 'digest.example' } });
    await runAnalysis(id);
    const { row, body } = await bodyOf(id);
    expect(row.status).toBe('done');
    expect(body.groups.find((group) => group.key === 'domain:digest.example')).toMatchObject({ volume: 6, mailingListShare: 1 });

    // Past the bound, the analysis does not wait any longer: what the mirror has is counted.
    await db().mailMessage.updateMany({ where: { mailboxId: mailbox.id }, data: { bodyPending: true, isMailingList: false } });
    const late = await analysisOf(mailbox.id);
    await runAnalysis(late, { now: new Date(Date.now() + bodyPassWaitMs + 1_000) });
    expect((await db().mailboxAnalysis.findUniqueOrThrow({ where: { id: late } })).status).toBe('done');
    // Nor for a disconnected mailbox, whose pass does not go on.
    await db().mailbox.update({ where: { id: mailbox.id }, data: { status: 'disconnected' } });
    const disconnected = await analysisOf(mailbox.id);
    await runAnalysis(disconnected);
    expect((await db().mailboxAnalysis.findUniqueOrThrow({ where: { id: disconnected } })).status).toBe('done');
  });

  it('asks the model in batches; our builders make the graphs; one batch failing is counted', async () => {
    await connect();
    vendor.reset();
    const mailbox = await createMailbox(owner);
    // 12 domains of one message each and one subject pattern: 13 groups at volume 1, two batches.
    for (let index = 0; index < 12; index += 1) await createMessage(mailbox, { fromEmail: `info@d${String(index).padStart(2, '0')}.example`, subject: 'Your order', receivedAt: at(1, 8) });
    vendor.reply(
      { kind: 'error', status: 500, message: 'boom' },
      {
        kind: 'json',
        value: { proposals: [{ groupKeys: ['subject:your order', 'domain:unknown.example'], kind: 'extract_table', title: 'Orders: extract into a table', rationale: 'Twelve order mails.' }] },
        usage: { input: 120, output: 30 },
      },
    );
    const id = await analysisOf(mailbox.id, { minGroupVolume: 1 });
    await runAnalysis(id, { net: fakeNet });
    const { row, body } = await bodyOf(id);
    expect(row.status).toBe('done');
    expect(body.stats.groups).toBe(13);
    expect(body.stats.groupsAnalyzed).toBe(3);
    expect(row.llmOutcome).toMatchObject({
      status: 'ran',
      usage: { model: 'fake-model', inputTokens: 120, outputTokens: 30, costUsd: null },
      batches: 2,
      failedBatches: 1,
      groupsAttempted: 13,
      groupsAnswered: 3,
      failure: { code: expect.any(String), message: expect.any(String) },
    });
    expect(body.stats.llmOutcome).toEqual(row.llmOutcome);
    expect(body.opportunities).toHaveLength(1);
    const [opportunity] = body.opportunities;
    expect(opportunity).toMatchObject({
      key: 'o1',
      kind: 'extract_table',
      title: 'Orders: extract into a table',
      evidence: { groups: [{ key: 'subject:your order', label: 'your order', volume: 12 }], messages: 12, sampleSubjects: ['Your order'] },
    });
    const graph = opportunity.graph as { nodes: { type: string; params: Record<string, unknown> }[] };
    expect(graph.nodes.map((node) => node.type)).toEqual(['trigger.mail', 'data.set', 'tables.upsert', 'mail.label']);
    expect(graph.nodes[0].params).toMatchObject({ mailboxIds: [mailbox.id], subject: ['your order'] });
    expect((row.transcript as unknown[]).length).toBe(2);
    const usage = await db().llmUsage.findMany({ where: { memberId: owner.id, purpose: 'analyzer' } });
    expect(usage.map((item) => item.inputTokens)).toEqual([120]);

    // The route installs it as a draft workflow; an unknown key is 404.
    const created = await call('POST', `/api/v1/mailboxes/${mailbox.id}/analyzer/opportunities/o1/create`, { cookie: owner.cookie, body: {} });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const workflow = await db().workflow.findUniqueOrThrow({ where: { id: created.body.workflowId } });
    expect(workflow).toMatchObject({ memberId: owner.id, name: 'Orders: extract into a table', publishedVersionId: null });
    const read = await call('GET', `/api/v1/workflows/${workflow.id}`, { cookie: owner.cookie });
    expect(read.status).toBe(200);
    const missing = await call('POST', `/api/v1/mailboxes/${mailbox.id}/analyzer/opportunities/o9/create`, { cookie: owner.cookie, body: {} });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('analyzer.opportunity_not_found');

    // The report shows the transcript to an administrator only.
    const report = await call('GET', `/api/v1/mailboxes/${mailbox.id}/analyzer/report`, { cookie: owner.cookie });
    expect(report.status).toBe(200);
    expect(report.body.report).toMatchObject({ id, status: 'done', options: { windowDays: 30, minGroupVolume: 1 }, llmOutcome: { status: 'ran' } });
    expect(report.body.report.generatedAt).not.toBeNull();
    expect(report.body.report.transcript).toHaveLength(2);
  });

  it('without a test opening, reaches a compatible server on the instance’s network only when LLM_ALLOW_HOSTS names it', async () => {
    await connect();
    vendor.reset();
    const mailbox = await createMailbox(owner);
    for (let index = 0; index < 5; index += 1) await createMessage(mailbox, { fromEmail: 'news@letters.example', subject: `Letter ${index}`, receivedAt: at(1, 8) });
    const refused = await analysisOf(mailbox.id);
    await runAnalysis(refused);
    expect((await bodyOf(refused)).row.llmOutcome).toMatchObject({ status: 'failed', failedBatches: 1 });
    expect(vendor.requests).toHaveLength(0);
    process.env.LLM_ALLOW_HOSTS = '127.0.0.1';
    resetConfigForTests();
    try {
      vendor.reply({ kind: 'json', value: { proposals: [{ groupKeys: ['domain:letters.example'], kind: 'label_archive', title: 'Letters: label and archive', rationale: 'Five letters.' }] } });
      const allowed = await analysisOf(mailbox.id);
      await runAnalysis(allowed);
      const { row, body } = await bodyOf(allowed);
      expect(row.llmOutcome).toMatchObject({ status: 'ran', failedBatches: 0 });
      expect(body.opportunities.map((item) => item.title)).toEqual(['Letters: label and archive']);
    } finally {
      delete process.env.LLM_ALLOW_HOSTS;
      resetConfigForTests();
    }
  });

  it('an opportunity’s evidence counts each message and sample subject once, even when its domain and subject groups hold the same mail', async () => {
    await connect();
    vendor.reset();
    const mailbox = await seededMailbox();
    vendor.reply({
      kind: 'json',
      value: {
        proposals: [
          { groupKeys: ['domain:news.example', 'subject:weekly digest #'], kind: 'label_archive', title: 'Digest', rationale: 'Same six mails, two groups.' },
          { groupKeys: ['domain:news.example', 'domain:shop.example'], kind: 'notify', title: 'Both', rationale: 'Two domains.' },
        ],
      },
    });
    const id = await analysisOf(mailbox.id);
    await runAnalysis(id, { net: fakeNet });
    const { body } = await bodyOf(id);
    expect(body.opportunities.map((item) => [item.title, item.evidence.messages])).toEqual([
      ['Digest', 6],
      ['Both', 11],
    ]);
    // Their samples too: each subject once.
    expect(body.opportunities[0].evidence.sampleSubjects).toEqual(['Weekly digest 1', 'Weekly digest 2', 'Weekly digest 3']);
    // A group of a kind the count does not read adds its volume.
    const input = { mailboxId: mailbox.id, windowDays: 30, minGroupVolume: 5, now: new Date() };
    expect(await countGroupMessages(db(), input, [{ key: 'domain:shop.example', volume: 5 }, { key: 'other:x', volume: 3 }])).toBe(8);
    expect(await countGroupMessages(db(), input, [{ key: 'other:x', volume: 3 }])).toBe(3);
    // A mailing list's letters are counted once with the domain group that holds them too.
    await db().mailMessage.updateMany({ where: { mailboxId: mailbox.id, subject: { startsWith: 'Weekly digest' } }, data: { listId: 'digest.news.example' } });
    const digest = body.opportunities[0].evidence.groups.find((group) => group.key.startsWith('domain:'))!;
    expect(await countGroupMessages(db(), input, [{ key: digest.key, volume: digest.volume }, { key: 'list:digest.news.example', volume: 6 }])).toBe(6);
    expect(await countGroupMessages(db(), input, [{ key: 'list:digest.news.example', volume: 99 }])).toBe(6);
  });

  it('failed when every batch fails, with the code, a bounded message and the counters', async () => {
    await connect();
    vendor.reset();
    const mailbox = await createMailbox(owner);
    for (let index = 0; index < 5; index += 1) await createMessage(mailbox, { fromEmail: 'news@letters.example', subject: `Letter ${index}`, receivedAt: at(1, 8) });
    vendor.reply({ kind: 'error', status: 401, message: 'x'.repeat(1000) });
    const id = await analysisOf(mailbox.id);
    await runAnalysis(id, { net: fakeNet });
    const { row, body } = await bodyOf(id);
    expect(row.status).toBe('done');
    expect(row.llmOutcome).toMatchObject({ status: 'failed', code: expect.any(String), batches: 1, failedBatches: 1, groupsAttempted: 2, groupsAnswered: 0 });
    expect((row.llmOutcome as { message: string }).message.length).toBeLessThanOrEqual(300);
    expect(body.stats.groupsAnalyzed).toBe(0);
    expect(body.opportunities).toEqual([]);
  });

  it('a job retried after its runner died asks the model only for the batches not answered yet, and records their usage once', async () => {
    await connect();
    vendor.reset();
    const mailbox = await createMailbox(owner);
    // 13 groups at volume 1: two batches.
    for (let index = 0; index < 12; index += 1) await createMessage(mailbox, { fromEmail: `info@d${String(index).padStart(2, '0')}.example`, subject: 'Your order', receivedAt: at(1, 8) });
    const first = { kind: 'json' as const, value: { proposals: [{ groupKeys: ['domain:d00.example'], kind: 'notify' as const, title: 'First batch', rationale: 'One.' }] }, usage: { input: 100, output: 10 } };
    const second = { kind: 'json' as const, value: { proposals: [{ groupKeys: ['subject:your order'], kind: 'extract_table' as const, title: 'Second batch', rationale: 'Two.' }] }, usage: { input: 200, output: 20 } };
    vendor.reply(first, second);
    const whole = await analysisOf(mailbox.id, { minGroupVolume: 1 });
    await runAnalysis(whole, { net: fakeNet });
    const answered = (await bodyOf(whole)).row.transcript as unknown[];
    expect(answered).toHaveLength(2);

    // What a runner that died after the first batch leaves: the row running, that batch kept with the progress.
    const interrupted = await analysisOf(mailbox.id, { minGroupVolume: 1 });
    await db().mailboxAnalysis.update({ where: { id: interrupted }, data: { status: 'running', progress: { phase: 'model', batchesDone: 1, batches: 2 }, transcript: [answered[0]] as object[] } });
    const usageBefore = await db().llmUsage.count({ where: { memberId: owner.id, purpose: 'analyzer' } });
    vendor.reset();
    vendor.reply(second);
    await runAnalysis(interrupted, { net: fakeNet });

    expect(vendor.requests).toHaveLength(1);
    expect(await db().llmUsage.count({ where: { memberId: owner.id, purpose: 'analyzer' } })).toBe(usageBefore + 1);
    const { row, body } = await bodyOf(interrupted);
    expect(row.status).toBe('done');
    expect(row.llmOutcome).toMatchObject({ status: 'ran', batches: 2, failedBatches: 0, usage: { inputTokens: 300, outputTokens: 30 } });
    expect(body.opportunities.map((item) => item.title)).toEqual(['First batch', 'Second batch']);
    expect(row.transcript as unknown[]).toHaveLength(2);
  });
});
