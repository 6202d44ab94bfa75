/**
 * Issue 25 §3: every call to an OAuth provider is taken from the account's budget first, so a large
 * initial sync stays under the provider's quota instead of meeting its 429s. The fakes enforce the
 * quota as the provider does (a sliding window per account); here the window is five seconds instead
 * of one or ten minutes, with the quota scaled down with it, so a test sees several windows.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { adapterHarness, syncToTheEnd, type AdapterHarness } from '../../testing/fakes/adapter-harness';
import { startFakeGmail, type FakeGmailServer } from '../../testing/fakes/gmail-server';
import { startFakeGraph, type FakeGraphServer } from '../../testing/fakes/graph-server';
import { buildRawMessage } from '../../testing/mail-servers/deliver';
import { useTestDatabase } from '../../testing/test-database';
import type { ProviderQuota } from './call-budget';
import { createGmailAdapter } from './gmail/adapter';
import { createGraphAdapter } from './graph/adapter';
import { ProviderRateLimited } from './provider-errors';

await useTestDatabase();

const day = 86_400_000;
const now = Math.floor(Date.now() / 1000) * 1000;
const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function mail(index: number): Promise<{ raw: Buffer; at: Date }> {
  const at = new Date(now - (1 + (index % 20)) * 3_600_000);
  const raw = await buildRawMessage({
    from: `Client ${index} <client${index}@example.test>`,
    to: 'team@example.test',
    subject: `Order ${1000 + index}`,
    text: `Hello,\n\nabout order ${1000 + index}: could you confirm the delivery date?\n\nThanks`,
    messageId: `<quota-${index}-${now}@example.test>`,
    date: at,
  });
  return { raw, at };
}

/** A fake provider started with the scaled quota, holding `messages` realistic messages of the last day. */
async function withMailAndQuota<Server extends FakeGmailServer | FakeGraphServer>(
  server: Server,
  messages: number,
  quota: ProviderQuota,
  add: (server: Server, raw: Buffer, at: Date) => void,
): Promise<Server> {
  servers.push(server);
  server.quota.perWindow = quota.perWindow;
  server.quota.windowSeconds = quota.windowSeconds;
  for (let index = 0; index < messages; index += 1) {
    const { raw, at } = await mail(index);
    add(server, raw, at);
  }
  return server;
}

const gmailWith = async (messages: number, quota: ProviderQuota) =>
  withMailAndQuota(await startFakeGmail(), messages, quota, (server, raw, at) => server.addMessage(raw, { internalDate: at }));
const graphWith = async (messages: number, quota: ProviderQuota) =>
  withMailAndQuota(await startFakeGraph(), messages, quota, (server, raw, at) => server.addMessage(raw, { receivedDateTime: at }));

function gmailHarness(server: FakeGmailServer, quota: ProviderQuota, address?: string): Promise<AdapterHarness> {
  return adapterHarness(
    'mail_provider_a',
    (options) => createGmailAdapter({ ...options, address: address ?? options.address, baseUrl: server.baseUrl, allowPrivate: true, quota }),
    { tokens: ['gmail-token'], initialSince: new Date(now - 30 * day) },
  );
}

function graphHarness(server: FakeGraphServer, quota: ProviderQuota): Promise<AdapterHarness> {
  return adapterHarness(
    'mail_provider_b',
    (options) => createGraphAdapter({ ...options, baseUrl: server.baseUrl, allowPrivate: true, quota }),
    { tokens: ['graph-token'], initialSince: new Date(now - 30 * day) },
  );
}

// Gmail: 250 units per 5 s stands for 6,000 a minute. 60 messages cost 300 units of messages.get alone.
const gmailQuota = { perWindow: 250, windowSeconds: 5 };
// Graph: 40 requests per 5 s stands for 10,000 per 10 minutes.
const graphQuota = { perWindow: 40, windowSeconds: 5 };

describe('provider quotas are budgeted before they are hit', () => {
  it('a Gmail initial sync of 60 messages finishes without a single 429, held to the quota', async () => {
    const server = await gmailWith(60, gmailQuota);
    const harness = await gmailHarness(server, gmailQuota);
    const started = Date.now();
    await syncToTheEnd(harness);
    expect((await harness.rows()).length).toBe(60);
    expect(server.quota.refusals).toBe(0);
    // More than a window's worth of units was spent, so the budget must have made the sync wait.
    expect(Date.now() - started).toBeGreaterThan(gmailQuota.windowSeconds * 1000);
  });

  it('the fake does refuse a sync that ignores the quota: the same sync without a budget meets 429s', async () => {
    const server = await gmailWith(60, gmailQuota);
    const harness = await gmailHarness(server, { perWindow: 1_000_000_000, windowSeconds: 1 });
    await expect(syncToTheEnd(harness)).rejects.toBeInstanceOf(ProviderRateLimited);
    expect(server.quota.refusals).toBeGreaterThan(0);
  });

  it('two mailboxes of one account (two members, or two runners) share its budget in the database', async () => {
    const server = await gmailWith(30, gmailQuota);
    const [first, second] = [await gmailHarness(server, gmailQuota, 'shared@example.test'), await gmailHarness(server, gmailQuota, 'shared@example.test')];
    await Promise.all([syncToTheEnd(first), syncToTheEnd(second)]);
    expect((await first.rows()).length).toBe(30);
    expect((await second.rows()).length).toBe(30);
    expect(server.quota.refusals).toBe(0);
  });

  it('a Graph initial sync of 60 messages finishes without a single 429, held to the quota', async () => {
    const server = await graphWith(60, graphQuota);
    const harness = await graphHarness(server, graphQuota);
    const started = Date.now();
    await syncToTheEnd(harness);
    expect((await harness.rows()).length).toBe(60);
    expect(server.quota.refusals).toBe(0);
    expect(Date.now() - started).toBeGreaterThan(graphQuota.windowSeconds * 1000);
  });
});
