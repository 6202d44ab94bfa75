/**
 * The analyzer's routes without the runner: start (202, defaults, options, bounds), reuse of
 * today's report and `force`, idempotency, another member's or an unknown mailbox, the report
 * (404 before any analysis, the latest of any status, transcripts for administrators only),
 * scopes. server/domains/analyzer/run/analyze.int.test.ts runs analyses.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { createMailbox } from '../../testing/mail-factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';

await useTestDatabase();

let owner: TestMember;
let other: TestMember;
let admin: TestMember;

beforeAll(async () => {
  owner = await createMember();
  other = await createMember();
  admin = await createMember({ role: 'admin' });
});

const analyze = (mailboxId: string, body: unknown = {}, member: TestMember = owner, headers: Record<string, string> = {}) =>
  call('POST', `/api/v1/mailboxes/${mailboxId}/analyze`, { cookie: member.cookie, body, headers });
const report = (mailboxId: string, member: TestMember = owner) => call('GET', `/api/v1/mailboxes/${mailboxId}/analyzer/report`, { cookie: member.cookie });

describe('POST /api/v1/mailboxes/{id}/analyze', () => {
  it('starts a pending analysis (202, defaults) and queues the runner job', async () => {
    const mailbox = await createMailbox(owner);
    const response = await analyze(mailbox.id);
    expect(response.status, JSON.stringify(response.body)).toBe(202);
    expect(response.body).toEqual({
      report: { id: expect.any(String), mailboxId: mailbox.id, status: 'pending', createdAt: expect.any(String), generatedAt: null, reused: false },
    });
    const row = await db().mailboxAnalysis.findUniqueOrThrow({ where: { id: response.body.report.id } });
    expect(row).toMatchObject({ memberId: owner.id, windowDays: 30, minGroupVolume: 5 });
    const jobs = await db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM graphile_worker.jobs WHERE key = ${`analyzer:${row.id}`}`;
    expect(jobs[0].n).toBe(1);
  });

  it('reuses today’s report unless `force`; a failed one is not reused', async () => {
    const mailbox = await createMailbox(owner);
    const first = await analyze(mailbox.id, { windowDays: 90, minGroupVolume: 3 });
    expect(first.status).toBe(202);
    const again = await analyze(mailbox.id, { windowDays: 365 });
    expect(again.status).toBe(202);
    expect(again.body.report).toMatchObject({ id: first.body.report.id, reused: true });
    const forced = await analyze(mailbox.id, { force: true, windowDays: 365, minGroupVolume: 1000 });
    expect(forced.status).toBe(202);
    expect(forced.body.report.id).not.toBe(first.body.report.id);
    expect(forced.body.report.reused).toBe(false);
    expect(await db().mailboxAnalysis.findUniqueOrThrow({ where: { id: forced.body.report.id } })).toMatchObject({ windowDays: 365, minGroupVolume: 1000 });
    // Yesterday's report is not today's; a failed one of today neither.
    await db().mailboxAnalysis.updateMany({ where: { mailboxId: mailbox.id }, data: { createdAt: new Date(Date.now() - 2 * 86_400_000) } });
    const fresh = await analyze(mailbox.id);
    expect(fresh.body.report.reused).toBe(false);
    await db().mailboxAnalysis.update({ where: { id: fresh.body.report.id }, data: { status: 'failed', finishedAt: new Date() } });
    const afterFailure = await analyze(mailbox.id);
    expect(afterFailure.body.report.reused).toBe(false);
    expect(afterFailure.body.report.id).not.toBe(fresh.body.report.id);
  });

  it.each([
    ['an unknown windowDays', { windowDays: 45 }],
    ['windowDays as a string', { windowDays: '30' }],
    ['minGroupVolume 0', { minGroupVolume: 0 }],
    ['minGroupVolume 1001', { minGroupVolume: 1001 }],
    ['a fractional minGroupVolume', { minGroupVolume: 2.5 }],
    ['force not a boolean', { force: 'yes' }],
  ])('answers 400 request.bad_request for %s', async (_label, body) => {
    const mailbox = await createMailbox(owner);
    const response = await analyze(mailbox.id, body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });

  it('404 analyzer.mailbox_not_found for another member’s, an unknown or a malformed mailbox', async () => {
    const mailbox = await createMailbox(owner);
    for (const [member, id] of [
      [other, mailbox.id],
      [owner, randomUUID()],
      [owner, 'not-a-uuid'],
    ] as const) {
      const response = await analyze(id, {}, member);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('analyzer.mailbox_not_found');
    }
    expect(await db().mailboxAnalysis.count({ where: { mailboxId: mailbox.id } })).toBe(0);
  });

  it('replays an answer for the same Idempotency-Key (one analysis)', async () => {
    const mailbox = await createMailbox(owner);
    const key = randomUUID();
    const first = await analyze(mailbox.id, { force: true }, owner, { 'idempotency-key': key });
    const again = await analyze(mailbox.id, { force: true }, owner, { 'idempotency-key': key });
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(await db().mailboxAnalysis.count({ where: { mailboxId: mailbox.id } })).toBe(1);
  });

  it('needs analyzer:write for a key; analyzer:read reads the report', async () => {
    const mailbox = await createMailbox(owner);
    const { secret: readKey } = await createApiKeyFor(owner, ['analyzer:read']);
    const refused = await call('POST', `/api/v1/mailboxes/${mailbox.id}/analyze`, { key: readKey, body: {} });
    expect(refused.status).toBe(403);
    const { secret: writeKey } = await createApiKeyFor(owner, ['analyzer:write']);
    const started = await call('POST', `/api/v1/mailboxes/${mailbox.id}/analyze`, { key: writeKey, body: {} });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const read = await call('GET', `/api/v1/mailboxes/${mailbox.id}/analyzer/report`, { key: readKey });
    expect(read.status).toBe(200);
    expect(read.body.report.id).toBe(started.body.report.id);
  });
});

describe('GET /api/v1/mailboxes/{id}/analyzer/report', () => {
  it('404 analyzer.report_not_found before any analysis; analyzer.mailbox_not_found for another member’s or an unknown mailbox', async () => {
    const mailbox = await createMailbox(owner);
    const never = await report(mailbox.id);
    expect(never.status).toBe(404);
    expect(never.body.error.code).toBe('analyzer.report_not_found');
    await analyze(mailbox.id);
    for (const [member, id] of [
      [other, mailbox.id],
      [owner, randomUUID()],
    ] as const) {
      const response = await report(id, member);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('analyzer.mailbox_not_found');
    }
  });

  it('answers the latest report of any status, with its options and progress; no transcript for a member', async () => {
    const mailbox = await createMailbox(owner);
    const first = await analyze(mailbox.id);
    await db().mailboxAnalysis.update({ where: { id: first.body.report.id }, data: { status: 'failed', finishedAt: new Date() } });
    const read = await report(mailbox.id);
    expect(read.status).toBe(200);
    expect(read.body.report).toMatchObject({
      id: first.body.report.id,
      mailboxId: mailbox.id,
      status: 'failed',
      options: { windowDays: 30, minGroupVolume: 5 },
      progress: { phase: null, batchesDone: 0, batches: 0 },
      body: null,
      llmOutcome: null,
    });
    expect(read.body.report.generatedAt).not.toBeNull();
    expect(read.body.report).not.toHaveProperty('transcript');
    const second = await analyze(mailbox.id, { windowDays: 180 });
    expect(second.body.report.reused).toBe(false);
    const latest = await report(mailbox.id);
    expect(latest.body.report).toMatchObject({ id: second.body.report.id, status: 'pending', generatedAt: null, options: { windowDays: 180 } });
  });

  it('shows raw transcripts to an administrator only', async () => {
    const mailbox = await createMailbox(admin);
    const started = await analyze(mailbox.id, {}, admin);
    await db().mailboxAnalysis.update({ where: { id: started.body.report.id }, data: { transcript: [{ batch: 0, request: { user: 'x' } }] } });
    const read = await report(mailbox.id, admin);
    expect(read.body.report.transcript).toEqual([{ batch: 0, request: { user: 'x' } }]);
  });
});

describe('POST /api/v1/mailboxes/{id}/analyzer/opportunities/{key}/create', () => {
  it('404 for another member’s mailbox, before any report and for an unknown opportunity', async () => {
    const mailbox = await createMailbox(owner);
    const path = `/api/v1/mailboxes/${mailbox.id}/analyzer/opportunities/o1/create`;
    const noReport = await call('POST', path, { cookie: owner.cookie, body: {} });
    expect(noReport.body.error.code).toBe('analyzer.report_not_found');
    await analyze(mailbox.id);
    const notFound = await call('POST', path, { cookie: owner.cookie, body: {} });
    expect(notFound.status).toBe(404);
    expect(notFound.body.error.code).toBe('analyzer.opportunity_not_found');
    const foreign = await call('POST', path, { cookie: other.cookie, body: {} });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('analyzer.mailbox_not_found');
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('a prototype-named key (%s) is an unknown opportunity, not a property', async (key) => {
    const mailbox = await createMailbox(owner);
    await analyze(mailbox.id);
    const response = await call('POST', `/api/v1/mailboxes/${mailbox.id}/analyzer/opportunities/${key}/create`, { cookie: owner.cookie, body: {} });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('analyzer.opportunity_not_found');
  });

  it('answers 400 request.bad_request for a key longer than 200 characters', async () => {
    const mailbox = await createMailbox(owner);
    const response = await call('POST', `/api/v1/mailboxes/${mailbox.id}/analyzer/opportunities/${'k'.repeat(201)}/create`, { cookie: owner.cookie, body: {} });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('request.bad_request');
  });
});
