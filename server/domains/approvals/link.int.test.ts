/**
 * The approval email link (GET/POST /api/v1/approvals/t/{token}/{decision}): a GET never decides,
 * the POST of the page's form decides once, cross-site and forged posts are refused, repeats show
 * what holds, unknown tokens are 404, the route is rate-limited per client address.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { expireApprovalsOfEndedRuns } from './expire';
import { cancelExecutions } from '../../engine/run/cancel';
import { createMember, type TestMember } from '../../testing/factories';
import { createExecution, createStep } from '../../testing/execution-factories';
import { createMailbox } from '../../testing/mail-factories';
import { call, type CallOptions } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';
import { createWorkflow } from '../../testing/workflow-factories';
import { requestApproval } from './engine-api';
import { issuePageToken } from './tokens';

await useTestDatabase();

let member: TestMember;
beforeAll(async () => {
  member = await createMember();
  await createMailbox(member);
});

/** A fresh client address per test: the per-IP limit is not what most tests are about. */
const freshIp = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

/** An approval asked by a waiting run, its emailed token read back from the email. */
async function asked(approverEmails = ['boss@example.test']) {
  const { workflow, version } = await createWorkflow(member, { name: 'Refunds' });
  const execution = await createExecution(member, { workflowId: workflow.id, workflowVersionId: version!.id, status: 'waiting' });
  await createStep(execution.id, { nodeId: 'ask', nodeType: 'approval.request@1', status: 'waiting', data: null, output: null });
  const { approvalId } = await requestApproval(
    { executionId: execution.id, memberId: member.id },
    { nodeId: 'ask', title: 'Refund <b>order</b> 7', details: 'Customer asked twice', expiresAt: new Date(Date.now() + 3_600_000), approverEmails, mailboxId: null },
  );
  const item = await db().outboundMessage.findFirstOrThrow({ where: { approvalId } });
  const token = /\/approvals\/t\/([A-Za-z0-9_-]{43})\/approve/.exec(item.bodyText!)![1];
  return { execution, approvalId, token };
}

const browser = { 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', 'sec-fetch-site': 'none' };

function open(token: string, decision: string, options: CallOptions = {}) {
  return call('GET', `/api/v1/approvals/t/${token}/${decision}`, { ip: freshIp(), ...options, headers: { ...browser, ...options.headers } });
}

function pageTokenOf(html: string): string {
  return /name="pageToken" value="([^"]+)"/.exec(html)![1];
}

function confirm(token: string, decision: string, pageToken: string | null, options: CallOptions = {}) {
  const form = pageToken === null ? '' : `pageToken=${encodeURIComponent(pageToken)}`;
  return call('POST', `/api/v1/approvals/t/${token}/${decision}`, {
    ip: freshIp(),
    ...options,
    rawBody: form,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', 'sec-fetch-site': 'same-origin', ...options.headers },
  });
}

describe('GET: a page that shows and never decides', () => {
  it('answers a standalone bilingual page with the approval and a one-button form, five times, and the approval stays pending', async () => {
    const { approvalId, token, execution } = await asked();
    for (let index = 0; index < 5; index += 1) {
      const page = await open(token, 'approve');
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.body).toContain('Refund &lt;b&gt;order&lt;/b&gt; 7');
      expect(page.body).toContain('Customer asked twice');
      expect(page.body).toContain('Refunds');
      expect(page.body).toContain('Approve this request?');
      expect(page.body).toContain('Approuver cette demande ?');
      expect(page.body).toContain(`action="/api/v1/approvals/t/${token}/approve"`);
      expect(page.body).not.toContain('<script');
    }
    expect((await db().approval.findUniqueOrThrow({ where: { id: approvalId } })).status).toBe('pending');
    expect((await db().execution.findUniqueOrThrow({ where: { id: execution.id } })).status).toBe('waiting');
  });

  it('carries strict headers', async () => {
    const { token } = await asked();
    const page = await open(token, 'reject');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('content-security-policy')).not.toContain('script-src');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('cache-control')).toBe('no-store');
    // Not no-referrer: under it the browser posts the form with `Origin: null`, refused as cross-site.
    expect(page.headers.get('referrer-policy')).toBe('same-origin');
    expect(page.body).toContain('<meta name="referrer" content="same-origin">');
    expect(page.body).toContain('Reject this request?');
  });

  it('puts French first for a French reader', async () => {
    const { token } = await asked();
    const page = await open(token, 'approve', { headers: { 'accept-language': 'fr-FR,fr;q=0.9,en;q=0.5' } });
    expect(page.body.indexOf('Approuver cette demande ?')).toBeLessThan(page.body.indexOf('Approve this request?'));
    expect(page.body).toContain('<html lang="fr">');
  });

  it('404 for an unknown token or a decision other than approve/reject: a page for a browser, the envelope otherwise', async () => {
    const { token } = await asked();
    for (const [path, ip] of [[`${'A'.repeat(43)}/approve`, freshIp()], [`${token}/maybe`, freshIp()], [`short/approve`, freshIp()]]) {
      const page = await call('GET', `/api/v1/approvals/t/${path}`, { ip, headers: browser });
      expect(page.status).toBe(404);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.body).toContain('Ce lien d’approbation est inconnu');
      const api = await call('GET', `/api/v1/approvals/t/${path}`, { ip });
      expect(api.status).toBe(404);
      expect(api.body.error.code).toBe('approval.not_found');
    }
  });
});

describe('POST: the confirmation decides once', () => {
  it('decides with the page’s token, resumes the run, records the approver, and answers a page saying so', async () => {
    const { approvalId, token, execution } = await asked();
    const page = await open(token, 'approve');
    const done = await confirm(token, 'approve', pageTokenOf(page.body));
    expect(done.status).toBe(200);
    expect(done.body).toContain('the request is approved');
    expect(done.body).toContain('la demande est approuvée');
    expect(await db().approval.findUniqueOrThrow({ where: { id: approvalId } })).toMatchObject({ status: 'approved', decidedVia: 'link', decidedBy: 'boss@example.test' });
    expect((await db().execution.findUniqueOrThrow({ where: { id: execution.id } })).status).toBe('queued');
  });

  it('records `email link` when the email went to several approvers; reject takes the reject decision', async () => {
    const { approvalId, token } = await asked(['a@example.test', 'b@example.test']);
    const page = await open(token, 'reject');
    const done = await confirm(token, 'reject', pageTokenOf(page.body));
    expect(done.body).toContain('the request is rejected');
    expect(await db().approval.findUniqueOrThrow({ where: { id: approvalId } })).toMatchObject({ status: 'rejected', decidedBy: 'email link' });
  });

  it('is single use: a second POST, and a GET afterwards, show the decision that holds', async () => {
    const { approvalId, token } = await asked();
    const pageToken = pageTokenOf((await open(token, 'approve')).body);
    await confirm(token, 'approve', pageToken);
    const again = await confirm(token, 'reject', issuePageToken((await db().approval.findUniqueOrThrow({ where: { id: approvalId } })).linkTokenHash!, 'reject'));
    expect(again.status).toBe(200);
    expect(again.body).toContain('This request was already approved by boss@example.test');
    expect(again.body).toContain('Cette demande a déjà été approuvée');
    const later = await open(token, 'reject');
    expect(later.body).toContain('already approved');
    expect(later.body).not.toContain('<form');
    expect((await db().approval.findUniqueOrThrow({ where: { id: approvalId } })).status).toBe('approved');
  });

  it('shows a decision taken in the application', async () => {
    const { approvalId, token } = await asked();
    await call('POST', `/api/v1/approvals/${approvalId}/decide`, { cookie: member.cookie, body: { decision: 'reject' } });
    const page = await open(token, 'approve');
    expect(page.body).toContain(`already rejected by ${member.email}`);
  });

  it('refuses a POST without a page token, with a forged one, or with one for the other decision (403, nothing decided)', async () => {
    const { approvalId, token } = await asked();
    const valid = pageTokenOf((await open(token, 'reject')).body);
    for (const pageToken of [null, 'x', `${Date.now()}.${'A'.repeat(43)}`, valid]) {
      const refused = await confirm(token, 'approve', pageToken);
      expect(refused.status).toBe(403);
      expect(refused.body).toContain('Nothing was decided');
      const api = await confirm(token, 'approve', pageToken, { headers: { 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' } });
      expect(api.status).toBe(403);
      expect(api.body.error.code).toBe('auth.cross_origin');
    }
    expect((await db().approval.findUniqueOrThrow({ where: { id: approvalId } })).status).toBe('pending');
  });

  it('refuses a page token older than one hour', async () => {
    const { approvalId, token } = await asked();
    const row = await db().approval.findUniqueOrThrow({ where: { id: approvalId } });
    const old = issuePageToken(row.linkTokenHash!, 'approve', Date.now() - 2 * 3_600_000);
    expect((await confirm(token, 'approve', old)).status).toBe(403);
  });

  it('refuses a cross-site POST even with a valid page token', async () => {
    const { approvalId, token } = await asked();
    const pageToken = pageTokenOf((await open(token, 'approve')).body);
    const fromElsewhere = await confirm(token, 'approve', pageToken, { headers: { origin: 'http://attacker.example', 'sec-fetch-site': 'cross-site' } });
    expect(fromElsewhere.status).toBe(403);
    expect(fromElsewhere.body).toContain('Nothing was decided');
    const originOnly = await confirm(token, 'approve', pageToken, { headers: { origin: 'http://attacker.example', 'sec-fetch-site': '' } });
    expect(originOnly.status).toBe(403);
    expect((await db().approval.findUniqueOrThrow({ where: { id: approvalId } })).status).toBe('pending');
  });

  it('404 for an unknown token on POST', async () => {
    const refused = await confirm(randomUUID().replace(/-/g, '').padEnd(43, 'x'), 'approve', 'x');
    expect(refused.status).toBe(404);
  });
});

describe('ended approvals', () => {
  it('an expired approval says so (GET and POST), and is not decided', async () => {
    const { approvalId, token } = await asked();
    const pageToken = pageTokenOf((await open(token, 'approve')).body);
    await db().approval.update({ where: { id: approvalId }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    expect((await open(token, 'approve')).body).toContain('This request expired on');
    const late = await confirm(token, 'approve', pageToken);
    expect(late.status).toBe(200);
    expect(late.body).toContain('This request expired on');
    expect(late.body).toContain('Cette demande a expiré');
    expect((await db().approval.findUniqueOrThrow({ where: { id: approvalId } })).status).toBe('pending');
  });

  it('a cancelled run’s approval says the run was cancelled', async () => {
    const { execution, token } = await asked();
    await cancelExecutions(member.id, [execution.id]);
    const page = await open(token, 'approve');
    expect(page.body).toContain('The run was cancelled');
    expect(page.body).toContain('L’exécution a été annulée');
  });

  it('an approval whose run ended without it says the run ended', async () => {
    const { execution, token } = await asked();
    await db().$transaction((tx) => expireApprovalsOfEndedRuns([execution.id], 'run_ended', tx));
    const page = await open(token, 'approve');
    expect(page.body).toContain('The run ended without this decision');
    expect(page.body).toContain('L’exécution s’est terminée sans cette décision');
  });
});

describe('rate limit', () => {
  it('answers 429 request.rate_limited past 30 requests a minute from one address', async () => {
    const { token } = await asked();
    const ip = freshIp();
    const statuses: number[] = [];
    for (let index = 0; index < 31; index += 1) statuses.push((await call('GET', `/api/v1/approvals/t/${token}/approve`, { ip })).status);
    expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
    const limited = await call('GET', `/api/v1/approvals/t/${token}/approve`, { ip });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('request.rate_limited');
    // Another address is not limited.
    expect((await open(token, 'approve')).status).toBe(200);
  });
});
