/**
 * Support over the real processes (issue 23): the instance started by playwright.config.ts is linked to the fake
 * operator process; its runner delivers a member's request and pulls the team's answer, and the web process
 * serves the operator's brand. A second web process on the same database without the link answers the local
 * state with `linked: false` and refuses writes.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { e2eAdmin, e2eControlPlane } from '../fixtures/env';
import { operatorReceived, operatorReply, operatorSetStatus } from '../fixtures/operator';
import { startUnlinkedInstance } from '../fixtures/unlinked-instance';

type Thread = { id: string; status: string; pending: boolean; unread: boolean; messages: { direction: string; body: string; pending: boolean }[] };

async function signedIn(playwright: { request: { newContext(options: { baseURL: string }): Promise<APIRequestContext> } }, baseURL: string): Promise<APIRequestContext> {
  const context = await playwright.request.newContext({ baseURL });
  expect((await context.post('/api/v1/auth/login', { data: e2eAdmin })).status()).toBe(200);
  return context;
}

test('a request travels to the operator once; the team’s reply and status come back; reading clears unread', async ({ playwright, baseURL }) => {
  const admin = await signedIn(playwright, baseURL!);
  const overview = await admin.get('/api/v1/support');
  expect(overview.status()).toBe(200);
  expect(await overview.json()).toMatchObject({ linked: true });

  const opened = await admin.post('/api/v1/support/requests', { data: { title: `Export to the ERP ${Date.now()}`, need: 'Please add a nightly export.' } });
  expect(opened.status()).toBe(201);
  const thread = (await opened.json()) as Thread;
  expect(thread).toMatchObject({ kind: 'request', status: 'received', pending: true });

  const atOperator = await operatorReceived(thread.id, 1);
  expect(atOperator.messages.filter((message) => message.direction === 'member')).toHaveLength(1);
  await expect.poll(async () => ((await (await admin.get(`/api/v1/support/threads/${thread.id}`)).json()) as Thread).pending).toBe(false);

  await operatorReply(thread.id, 'Camille (operations)', 'We can do that: see the quote.');
  await operatorSetStatus(thread.id, 'quoted');
  await expect
    .poll(async () => {
      const current = (await (await admin.get(`/api/v1/support/threads/${thread.id}`)).json()) as Thread;
      return [current.status, current.unread, current.messages.map((message) => message.direction)];
    }, { timeout: 20_000 })
    .toEqual(['quoted', true, ['member', 'team']]);

  const read = await admin.post(`/api/v1/support/threads/${thread.id}/read`);
  expect(read.status()).toBe(200);
  expect(await read.json()).toMatchObject({ unread: false });
  await admin.dispose();
});

test('the operator’s brand is the instance’s, with source control_plane', async ({ request }) => {
  await expect
    .poll(async () => (await (await request.get('/api/v1/branding')).json()) as { source: string; name: string }, { timeout: 30_000 })
    .toMatchObject({ source: 'control_plane', name: e2eControlPlane.brandName });
});

test('an unlinked instance reads the local threads and refuses every write with 409 support.not_linked', async ({ playwright }) => {
  test.setTimeout(120_000);
  const unlinked = await startUnlinkedInstance();
  try {
    const admin = await signedIn(playwright, unlinked.baseUrl);
    const overview = await admin.get('/api/v1/support');
    expect(overview.status()).toBe(200);
    expect(await overview.json()).toMatchObject({ linked: false, threads: expect.any(Array) });
    const refused = await admin.post('/api/v1/support/threads', { data: { subject: 'Hello', body: 'Anyone there?' } });
    expect(refused.status()).toBe(409);
    expect((await refused.json()).error.code).toBe('support.not_linked');
    expect(await (await admin.get('/api/v1/branding')).json()).toMatchObject({ source: 'environment' });
    await admin.dispose();
  } finally {
    await unlinked.stop();
  }
});
