import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { dispatchNewMail } from '../../engine/dispatch/dispatch-mail';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { createMailbox, createMessage } from '../../testing/mail-factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';

await useTestDatabase();

const mailGraph = (params: Record<string, unknown> = {}) => ({
  nodes: [{ id: 'mail', type: 'trigger.mail', version: 1, name: 'Mail', params, position: { x: 0, y: 0 } }],
  connections: [],
});

let member: TestMember;
let other: TestMember;
let mailbox: { id: string };
let second: { id: string };

async function dispatched(box: { id: string }, options: { subject?: string; fromEmail?: string } = {}) {
  const message = await createMessage(box, options);
  await db().mailDispatchQueue.create({ data: { messageId: message.id, mailboxId: box.id } });
  await dispatchNewMail(box.id);
  // Entries of one millisecond are ordered by id, not by insertion: keep the expected order unambiguous.
  await sleep(3);
  return message;
}

beforeAll(async () => {
  member = await createMember();
  other = await createMember();
  mailbox = await createMailbox(member);
  second = await createMailbox(member);
});

describe('GET /api/v1/messages/{id}/journal', () => {
  it('answers the entry and the runs started for the message, newest first, with workflow names', async () => {
    const first = await createWorkflow(member, { name: 'Invoices', graph: mailGraph({ subject: ['invoice'] }) });
    const doomed = await createWorkflow(member, { name: 'Doomed', graph: mailGraph({ subject: ['invoice'] }) });
    const message = await dispatched(mailbox, { subject: 'Invoice 1' });
    await db().workflow.delete({ where: { id: doomed.workflow.id } });
    // A test run on the message is listed too.
    const test = await db().execution.create({
      data: { memberId: member.id, workflowId: first.workflow.id, workflowVersionId: first.version!.id, messageId: message.id, simulated: true, holdsSlot: false, timeoutMs: 1000, status: 'succeeded', finishedAt: new Date() },
    });
    const response = await call('GET', `/api/v1/messages/${message.id}/journal`, { cookie: member.cookie });
    expect(response.status).toBe(200);
    const entry = await db().mailJournalEntry.findUniqueOrThrow({ where: { messageId: message.id } });
    expect(response.body.entry).toEqual({ id: entry.id, outcome: 'dispatched', ruleRef: null, createdAt: entry.createdAt.toISOString() });
    expect(response.body.executions).toHaveLength(3);
    expect(response.body.executions[0]).toEqual({
      id: test.id,
      workflowId: first.workflow.id,
      workflowName: 'Invoices',
      status: 'succeeded',
      simulated: true,
      createdAt: test.createdAt.toISOString(),
      finishedAt: test.finishedAt!.toISOString(),
    });
    const names = response.body.executions.slice(1).map((execution: { workflowName: string }) => execution.workflowName).sort();
    expect(names).toEqual(['', 'Invoices']);
    expect(response.body.executions[1]).toMatchObject({ status: 'queued', simulated: false, finishedAt: null });
  });

  it('entry null for a message never dispatched (mirrored by the first sync, a backfill or a resync)', async () => {
    const message = await createMessage(mailbox);
    const response = await call('GET', `/api/v1/messages/${message.id}/journal`, { cookie: member.cookie });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ entry: null, executions: [] });
  });

  it('names the rule that decided', async () => {
    const rule = await db().senderExclusion.create({ data: { memberId: member.id, kind: 'address', value: 'blocked@spam.test' } });
    const message = await dispatched(mailbox, { fromEmail: 'blocked@spam.test' });
    const response = await call('GET', `/api/v1/messages/${message.id}/journal`, { cookie: member.cookie });
    expect(response.body.entry).toMatchObject({ outcome: 'excluded_member', ruleRef: `exclusion:${rule.id}` });
  });

  it('404 request.not_found for another member’s message or an unknown one; needs messages:read', async () => {
    const message = await dispatched(mailbox);
    for (const id of [message.id, '00000000-0000-4000-8000-000000000000']) {
      const response = await call('GET', `/api/v1/messages/${id}/journal`, { cookie: other.cookie });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('request.not_found');
    }
    const { secret } = await createApiKeyFor(member, ['tables:read']);
    const refused = await call('GET', `/api/v1/messages/${message.id}/journal`, { key: secret });
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.required).toBe('messages:read');
    const { secret: reader } = await createApiKeyFor(member, ['messages:read']);
    expect((await call('GET', `/api/v1/messages/${message.id}/journal`, { key: reader })).status).toBe(200);
  });
});

describe('why each published mail workflow did or did not start (GET /api/v1/messages/{id}/journal `workflows`)', () => {
  it('names, per workflow, the run started or the guardrail, filter, pause or mailbox that kept it out, with the trigger parameter to change', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    const elsewhere = await createMailbox(own);
    const lists = await createWorkflow(own, { name: 'Newsletters', graph: mailGraph({ includeMailingLists: true, subject: ['weekly'] }) });
    const invoices = await createWorkflow(own, { name: 'Invoices', graph: mailGraph({ subject: ['invoice'] }) });
    const digests = await createWorkflow(own, { name: 'Digests', graph: mailGraph({ includeMailingLists: true, subject: ['digest'] }) });
    const paused = await createWorkflow(own, { name: 'Paused', graph: mailGraph({ includeMailingLists: true }), paused: true });
    const other = await createWorkflow(own, { name: 'Other box', graph: mailGraph({ mailboxIds: [elsewhere.id], includeMailingLists: true }) });
    await createWorkflow(own, { name: 'Draft only', graph: mailGraph({ includeMailingLists: true }), publish: false });
    const created = await createMessage(box, { subject: 'The weekly news', fromEmail: 'news@list.test' });
    await db().mailMessage.update({ where: { id: created.id }, data: { isMailingList: true, isBulk: true } });
    await db().mailDispatchQueue.create({ data: { messageId: created.id, mailboxId: box.id } });
    await dispatchNewMail(box.id);

    const response = await call('GET', `/api/v1/messages/${created.id}/journal`, { cookie: own.cookie });
    expect(response.status).toBe(200);
    expect(response.body.entry).toMatchObject({ outcome: 'dispatched' });
    expect(response.body.workflows).toEqual([
      { workflowId: lists.workflow.id, workflowName: 'Newsletters', verdict: 'started', ruleRef: null, param: null },
      { workflowId: invoices.workflow.id, workflowName: 'Invoices', verdict: 'guardrail', ruleRef: 'guardrail:mailing_list', param: 'includeMailingLists' },
      { workflowId: digests.workflow.id, workflowName: 'Digests', verdict: 'filtered', ruleRef: null, param: 'subject' },
      { workflowId: paused.workflow.id, workflowName: 'Paused', verdict: 'paused', ruleRef: null, param: null },
      { workflowId: other.workflow.id, workflowName: 'Other box', verdict: 'other_mailbox', ruleRef: null, param: 'mailboxIds' },
    ]);
    // The guardrail is explained with the same rule dispatch used: the journal's executions agree.
    expect(response.body.executions.map((execution: { workflowId: string }) => execution.workflowId)).toEqual([lists.workflow.id]);
  });

  it('a sender exclusion decides for every workflow; a message mirrored without dispatch says the workflow would start', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    const flow = await createWorkflow(own, { name: 'Everything', graph: mailGraph() });
    const rule = await db().senderExclusion.create({ data: { memberId: own.id, kind: 'domain', value: 'blocked.test' } });
    const excluded = await dispatched(box, { fromEmail: 'someone@blocked.test' });
    const answer = await call('GET', `/api/v1/messages/${excluded.id}/journal`, { cookie: own.cookie });
    expect(answer.body.workflows).toEqual([{ workflowId: flow.workflow.id, workflowName: 'Everything', verdict: 'excluded', ruleRef: `exclusion:${rule.id}`, param: null }]);

    const mirrored = await createMessage(box, { fromEmail: 'friend@example.test' });
    const quiet = await call('GET', `/api/v1/messages/${mirrored.id}/journal`, { cookie: own.cookie });
    expect(quiet.body.entry).toBeNull();
    expect(quiet.body.workflows).toEqual([{ workflowId: flow.workflow.id, workflowName: 'Everything', verdict: 'would_start', ruleRef: null, param: null }]);
  });

  it('the loop guard is named with no option to change (nothing lets mail from the mailbox itself through)', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    await createWorkflow(own, { graph: mailGraph({ includeAutoReplies: true, includeNoReply: true, includeMailingLists: true }) });
    const created = await createMessage(box);
    await db().mailMessage.update({ where: { id: created.id }, data: { isFromSelf: true } });
    const answer = await call('GET', `/api/v1/messages/${created.id}/journal`, { cookie: own.cookie });
    expect(answer.body.workflows).toEqual([expect.objectContaining({ verdict: 'guardrail', ruleRef: 'guardrail:from_self', param: null })]);
  });
});

describe('GET /api/v1/journal', () => {
  it('pages newest first with a cursor stable against insertion, filters by mailbox and outcome, member-scoped', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    const box2 = await createMailbox(own);
    await createWorkflow(own, { graph: mailGraph({ subject: ['go'] }) });
    const messages = [];
    for (let index = 0; index < 5; index += 1) messages.push(await dispatched(index % 2 ? box2 : box, { subject: index === 0 ? 'go now' : `m${index}`, fromEmail: `s${index}@x.test` }));
    // Someone else's entries never show.
    await dispatched(mailbox);

    const seen: Array<{ messageId: string; threadId: string | null }> = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const path: string = `/api/v1/journal?limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const page = await call('GET', path, { cookie: own.cookie });
      expect(page.status).toBe(200);
      seen.push(...page.body.entries);
      cursor = page.body.nextCursor;
      if (pages === 0) await dispatched(box, { subject: 'late' }); // inserted between pages: never shifts them
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen.map((entry) => entry.messageId)).toEqual([...messages].reverse().map((message) => message.id));
    const firstEntry = seen[seen.length - 1];
    expect(firstEntry).toMatchObject({ mailboxId: box.id, outcome: 'dispatched', ruleRef: null, subject: 'go now', fromEmail: 's0@x.test', threadId: messages[0]!.threadId });
    expect(firstEntry.threadId).toEqual(expect.any(String));

    const onlyBox2 = await call('GET', `/api/v1/journal?mailboxId=${box2.id}`, { cookie: own.cookie });
    expect(onlyBox2.body.entries.map((entry: { messageId: string }) => entry.messageId)).toEqual([messages[3]!.id, messages[1]!.id]);
    const unmatched = await call('GET', `/api/v1/journal?outcome=unmatched&limit=200`, { cookie: own.cookie });
    expect(unmatched.body.entries).toHaveLength(5);
    expect(unmatched.body.entries.every((entry: { outcome: string }) => entry.outcome === 'unmatched')).toBe(true);
  });

  it('keeps the entry of a message gone from the mirror, without its subject', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    const message = await dispatched(box);
    await db().mailMessage.delete({ where: { id: message.id } });
    const response = await call('GET', '/api/v1/journal', { cookie: own.cookie });
    expect(response.body.entries).toEqual([expect.objectContaining({ messageId: message.id, subject: null, fromEmail: null, threadId: null, outcome: 'unmatched' })]);
  });

  it('filters on the entry’s creation in [from, to), either bound alone or both, with the outcome', async () => {
    const own = await createMember();
    const box = await createMailbox(own);
    const at = (iso: string) => new Date(iso);
    const entries = [];
    for (const [createdAt, outcome] of [
      ['2026-05-01T09:59:59.999Z', 'dispatched'],
      ['2026-05-01T10:00:00.000Z', 'dispatched'],
      ['2026-05-01T10:30:00.000Z', 'guardrail'],
      ['2026-05-01T10:59:59.999Z', 'dispatched'],
      ['2026-05-01T11:00:00.000Z', 'dispatched'],
    ] as const) {
      const message = await createMessage(box);
      entries.push(await db().mailJournalEntry.create({ data: { memberId: own.id, mailboxId: box.id, messageId: message.id, outcome, createdAt: at(createdAt) } }));
    }
    const ids = async (query: string) => {
      const response = await call('GET', `/api/v1/journal?${query}`, { cookie: own.cookie });
      expect(response.status, query).toBe(200);
      return response.body.entries.map((entry: { id: string }) => entry.id);
    };
    const window = 'from=2026-05-01T10:00:00Z&to=2026-05-01T11:00:00Z';
    expect(await ids(window)).toEqual([entries[3]!.id, entries[2]!.id, entries[1]!.id]);
    expect(await ids(`${window}&outcome=dispatched`)).toEqual([entries[3]!.id, entries[1]!.id]);
    expect(await ids('from=2026-05-01T10:59:59.999Z')).toEqual([entries[4]!.id, entries[3]!.id]);
    expect(await ids('to=2026-05-01T10:00:00Z')).toEqual([entries[0]!.id]);
    // The cursor pages inside the window.
    const first = await call('GET', `/api/v1/journal?${window}&limit=2`, { cookie: own.cookie });
    const second = await call('GET', `/api/v1/journal?${window}&limit=2&cursor=${first.body.nextCursor}`, { cookie: own.cookie });
    expect(second.body).toEqual({ entries: [expect.objectContaining({ id: entries[1]!.id })], nextCursor: null });
  });

  it('400 request.bad_request when from ≥ to or a bound is not a date-time', async () => {
    for (const query of ['from=2026-05-01T10:00:00Z&to=2026-05-01T10:00:00Z', 'from=2026-05-02T00:00:00Z&to=2026-05-01T00:00:00Z', 'from=yesterday', 'to=2026-13-01T00:00:00Z']) {
      const response = await call('GET', `/api/v1/journal?${query}`, { cookie: member.cookie });
      expect(response.status, query).toBe(400);
      expect(response.body.error.code).toBe('request.bad_request');
    }
  });

  it('400 for limit outside 1-200, an unknown outcome or another member’s mailbox; an unreadable cursor gives the first page', async () => {
    for (const query of ['limit=201', 'limit=0', 'outcome=lost', `mailboxId=${mailbox.id}`, 'mailboxId=nope']) {
      const response = await call('GET', `/api/v1/journal?${query}`, { cookie: other.cookie });
      expect(response.status, query).toBe(400);
      expect(response.body.error.code).toBe('request.bad_request');
    }
    expect((await call('GET', '/api/v1/journal?limit=200', { cookie: member.cookie })).status).toBe(200);
    const garbage = await call('GET', '/api/v1/journal?cursor=%%%garbage', { cookie: member.cookie });
    expect(garbage.status).toBe(200);
    expect(garbage.body.entries.length).toBeGreaterThan(0);
    expect((await call('GET', `/api/v1/journal?mailboxId=${second.id}`, { cookie: member.cookie })).body).toEqual({ entries: [], nextCursor: null });
  });
});
