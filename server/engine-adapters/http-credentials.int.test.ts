/**
 * An `http_generic` connection through the real engine (issue 18, item 2): the secret reaches only the
 * hosts the connection is bound to, never a step's input, data, effects or error, nor the executions
 * list, an incident or a notification; a test run never opens it. Real loopback servers record every
 * request they receive, so "refused before any byte" is checked on the wire.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sealJson } from '../core/crypto/secret-box';
import { db } from '../core/db';
import type { GraphInput } from '../engine/contract/graph';
import { setCapabilityOptionsForTests } from './compose';
import { startExecution } from '../engine/run/start';
import { createMember, type TestMember } from '../testing/factories';
import { createMailbox, createMessage } from '../testing/mail-factories';
import { call } from '../testing/rest-client';
import { useTestDatabase } from '../testing/test-database';
import { createWorkflow } from '../testing/workflow-factories';
import { driveEvalRun } from '../domains/eval-runs/drive';
import { startEngineWorker, waitForExecution, type EngineWorker } from '../../runner/engine/testing/engine-worker';

const databaseUrl = await useTestDatabase();

interface Seen {
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
}

/** A loopback server recording every request; `/echo` answers what it received, `/fail` a 500 quoting it, `/go?to=` a 302. */
class Recorder {
  readonly seen: Seen[] = [];
  private server!: http.Server;
  origin = '';
  host = '';

  async start(): Promise<this> {
    this.server = http.createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://x');
      this.seen.push({ path: url.pathname, query: url.searchParams, headers: request.headers });
      const echo = JSON.stringify({ query: Object.fromEntries(url.searchParams), headers: request.headers });
      if (url.pathname === '/go') {
        // Many servers carry the query they received into the next hop.
        const to = new URL(url.searchParams.get('to') ?? '/');
        for (const [name, value] of url.searchParams) if (name !== 'to') to.searchParams.append(name, value);
        response.writeHead(302, { location: to.href }).end();
      } else if (url.pathname === '/fail') response.writeHead(500, { 'content-type': 'application/json' }).end(echo);
      else response.writeHead(200, { 'content-type': 'application/json', 'x-echo': url.search }).end(echo);
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.host = `127.0.0.1:${port}`;
    this.origin = `http://${this.host}`;
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const secret = 'org-secret-Q7wz91Lx';
let worker: EngineWorker;
let admin: TestMember;
let member: TestMember;
let stranger: TestMember;
let api: Recorder;
let api2: Recorder;
let elsewhere: Recorder;

beforeAll(async () => {
  [api, api2, elsewhere] = await Promise.all([new Recorder().start(), new Recorder().start(), new Recorder().start()]);
  // The loopback servers stand for public APIs: the HTTP node may reach 127.0.0.1 in these tests.
  setCapabilityOptionsForTests({ allowHosts: '127.0.0.1' });
  worker = await startEngineWorker(databaseUrl);
  admin = await createMember({ role: 'admin' });
  member = await createMember();
  stranger = await createMember();
});

afterAll(async () => {
  await worker?.stop();
  setCapabilityOptionsForTests({});
  await Promise.all([api, api2, elsewhere].map((server) => server?.close()));
});

beforeEach(async () => {
  for (const server of [api, api2, elsewhere]) server.seen.length = 0;
  await db().incident.deleteMany();
  await db().notification.deleteMany();
  await db().credential.deleteMany();
});

async function orgConnection(data: Record<string, string>, allowedHosts: string[] = [api.host]): Promise<string> {
  const created = await call('POST', '/api/v1/credentials', { cookie: admin.cookie, body: { type: 'http_generic', name: 'Org API', scope: 'org', data, allowedHosts } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
}

/** A connection as stored before connections carried their hosts. */
async function legacyConnection(owner: TestMember, scope: 'member' | 'org', data: Record<string, string>): Promise<string> {
  const id = randomUUID();
  await db().credential.create({ data: { id, memberId: owner.id, scope, type: 'http_generic', name: 'Old API', kind: data.kind, dataEnc: sealJson(data, `credential:${id}`) } });
  return id;
}

const callGraph = (params: Record<string, unknown>): GraphInput =>
  ({
    nodes: [
      { id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {}, position: { x: 0, y: 0 } },
      { id: 'call', type: 'http.request', version: 1, name: 'Call', params, position: { x: 200, y: 0 } },
    ],
    connections: [{ from: 'start', output: 'main', to: 'call' }],
  }) as GraphInput;

async function liveRun(owner: TestMember, params: Record<string, unknown>) {
  const { workflow, version } = await createWorkflow(owner, { graph: callGraph(params) });
  const execution = await startExecution({ memberId: owner.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'webhook', nodeId: 'start', data: {} } });
  return waitForExecution(execution.id);
}

async function testRun(owner: TestMember, params: Record<string, unknown>) {
  const { workflow } = await createWorkflow(owner, { graph: callGraph(params), publish: false });
  const started = await call('POST', `/api/v1/workflows/${workflow.id}/test-runs`, { cookie: owner.cookie, body: {} });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  return waitForExecution(started.body.executionId as string);
}

/** Everything the member can read about a run and its aftermath, as the API answers it. */
async function everythingReadable(owner: TestMember, executionId: string): Promise<string> {
  const reads = await Promise.all([
    call('GET', `/api/v1/executions/${executionId}`, { cookie: owner.cookie }),
    call('GET', '/api/v1/executions?limit=200', { cookie: owner.cookie }),
    call('GET', '/api/v1/executions?simulated=true', { cookie: owner.cookie }),
    call('GET', '/api/v1/executions/incidents', { cookie: owner.cookie }),
    call('GET', '/api/v1/notifications', { cookie: owner.cookie }),
  ]);
  for (const read of reads) expect(read.status, JSON.stringify(read.body)).toBe(200);
  const rows = await db().executionStep.findMany({ where: { executionId } });
  return JSON.stringify([reads.map((read) => read.body), rows]);
}

describe('an http_generic connection in a run', () => {
  it('secret never in a test run: a member’s test run with the organisation’s query connection shows no secret and sends nothing', async () => {
    const credentialId = await orgConnection({ kind: 'query', paramName: 'key', value: secret });
    const done = await testRun(member, { url: `${api.origin}/echo?page=1`, credentialId });
    expect(done.status).toBe('succeeded');
    expect(api.seen).toEqual([]);
    const detail = await call('GET', `/api/v1/executions/${done.id}`, { cookie: member.cookie });
    const step = detail.body.steps.find((item: { nodeId: string }) => item.nodeId === 'call');
    // What would be sent, the secret masked.
    expect(step.data.url).toBe(`${api.origin}/echo?page=1&key=••••`);
    expect(await everythingReadable(member, done.id)).not.toContain(secret);
  });

  it('secret never in step data: a live run sends the secret to the bound host only, and the step keeps none of it even when the server echoes it', async () => {
    const credentialId = await orgConnection({ kind: 'query', paramName: 'key', value: secret });
    const done = await liveRun(member, { url: `${api.origin}/echo`, credentialId });
    expect(done.status).toBe('succeeded');
    expect(api.seen.map((seen) => seen.query.get('key'))).toEqual([secret]);
    const step = done.steps.find((item) => item.nodeId === 'call')!;
    expect(step.data).toMatchObject({ status: 200, url: `${api.origin}/echo?key=••••`, body: { query: { key: '••••' } }, headers: { 'x-echo': '?key=••••' } });
    expect(await everythingReadable(member, done.id)).not.toContain(secret);
  });

  it.each([
    ['apiKey', { kind: 'apiKey', headerName: 'X-Api-Key', value: secret }],
    ['bearer', { kind: 'bearer', token: secret }],
    ['basic', { kind: 'basic', username: 'robot', password: secret }],
    ['query', { kind: 'query', paramName: 'key', value: secret }],
  ])('credential host not allowed: a %s connection is never sent to a host outside its hosts (refused before any byte, permanent)', async (_kind, data) => {
    const credentialId = await orgConnection(data);
    const done = await liveRun(member, { url: `${elsewhere.origin}/collect`, credentialId });
    expect(done.status).toBe('failed');
    expect(elsewhere.seen).toEqual([]);
    expect(done.error).toMatchObject({ code: 'http_credential_host_not_allowed', kind: 'permanent', attempts: 1 });
    expect(await everythingReadable(member, done.id)).not.toContain(secret);
  });

  it('credential host not allowed on a redirect: a hop outside the hosts is refused before any byte, and the incident and notification carry no secret', async () => {
    const credentialId = await orgConnection({ kind: 'query', paramName: 'key', value: secret });
    const done = await liveRun(member, { url: `${api.origin}/go?to=${encodeURIComponent(`${elsewhere.origin}/collect`)}`, credentialId });
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({ code: 'http_credential_host_not_allowed', kind: 'permanent' });
    expect(api.seen).toHaveLength(1);
    expect(elsewhere.seen).toEqual([]);
    expect(await db().incident.count({ where: { executionId: done.id } })).toBe(1);
    expect(await db().notification.count({ where: { memberId: member.id } })).toBeGreaterThan(0);
    expect(await everythingReadable(member, done.id)).not.toContain(secret);
  });

  it.each([
    ['apiKey', { kind: 'apiKey', headerName: 'X-Api-Key', value: secret }],
    ['query', { kind: 'query', paramName: 'key', value: secret }],
  ])('credentials dropped on origin change: a %s secret does not follow a redirect to another of its hosts', async (_kind, data) => {
    const credentialId = await orgConnection(data, [api.host, api2.host]);
    const done = await liveRun(member, { url: `${api.origin}/go?to=${encodeURIComponent(`${api2.origin}/landing`)}`, credentialId });
    expect(done.status).toBe('succeeded');
    expect(api.seen).toHaveLength(1);
    expect(JSON.stringify(api.seen[0].headers) + api.seen[0].query.toString()).toContain(secret);
    expect(api2.seen).toHaveLength(1);
    expect(api2.seen[0].headers['x-api-key']).toBeUndefined();
    expect(api2.seen[0].query.get('key')).toBeNull();
    expect(JSON.stringify(api2.seen[0])).not.toContain(secret);
  });

  it('test run never unseals: a test run reports what would be sent without opening the secret (one that cannot be opened)', async () => {
    const id = await orgConnection({ kind: 'apiKey', headerName: 'X-Api-Key', value: secret });
    // Sealed for another row: opening it fails, as the live run below shows.
    await db().credential.update({ where: { id }, data: { dataEnc: sealJson({ kind: 'apiKey', headerName: 'X-Api-Key', value: secret }, `credential:${randomUUID()}`) } });
    const simulated = await testRun(member, { url: `${api.origin}/echo`, credentialId: id });
    expect(simulated.status).toBe('succeeded');
    const live = await liveRun(member, { url: `${api.origin}/echo`, credentialId: id });
    expect(live.status).toBe('failed');
    expect(live.error).toMatchObject({ code: 'credential_missing' });
    expect(api.seen).toEqual([]);
  });

  it('another member’s connection fails exactly like one that does not exist (no existence leak), sending nothing', async () => {
    const created = await call('POST', '/api/v1/credentials', { cookie: stranger.cookie, body: { type: 'http_generic', name: 'Mine', data: { kind: 'bearer', token: secret }, allowedHosts: [api.host] } });
    expect(created.status).toBe(201);
    const theirs = await liveRun(member, { url: `${api.origin}/echo`, credentialId: created.body.id });
    const unknown = await liveRun(member, { url: `${api.origin}/echo`, credentialId: randomUUID() });
    expect(theirs.status).toBe('failed');
    expect(theirs.error).toMatchObject({ code: 'credential_missing', kind: 'permanent' });
    const { code, message, kind } = unknown.error as { code: string; message: string; kind: string };
    expect(theirs.error).toMatchObject({ code, message, kind });
    expect(api.seen).toEqual([]);
  });

  it('credential hosts missing: an organisation connection made before hosts existed is sent nowhere until an administrator sets them', async () => {
    const id = await legacyConnection(admin, 'org', { kind: 'bearer', token: secret });
    const refused = await liveRun(member, { url: `${api.origin}/echo`, credentialId: id });
    expect(refused.status).toBe('failed');
    expect(refused.error).toMatchObject({ code: 'http_credential_hosts_missing', kind: 'permanent' });
    expect(api.seen).toEqual([]);

    const updated = await call('PUT', `/api/v1/credentials/${id}`, { cookie: admin.cookie, body: { name: 'Old API', allowedHosts: [api.host] } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.credential.allowedHosts).toEqual([api.host]);
    const served = await liveRun(member, { url: `${api.origin}/echo`, credentialId: id });
    expect(served.status).toBe('succeeded');
    expect(api.seen.map((seen) => seen.headers.authorization)).toEqual([`Bearer ${secret}`]);

    // A replay of the refused run goes the same way, and keeps no secret either.
    const replay = await call('POST', `/api/v1/executions/${refused.id}/replay`, { cookie: member.cookie, body: {} });
    expect(replay.status, JSON.stringify(replay.body)).toBe(202);
    const replayed = await waitForExecution(replay.body.executionId as string);
    expect(replayed.status).toBe('succeeded');
    expect(api.seen).toHaveLength(2);
    expect(await everythingReadable(member, replayed.id)).not.toContain(secret);
  });

  it('evaluation run never unseals: an evaluation over mirrored mail runs the node simulated, sending nothing and opening nothing', async () => {
    const id = await orgConnection({ kind: 'query', paramName: 'key', value: secret });
    await db().credential.update({ where: { id }, data: { dataEnc: sealJson({ kind: 'query', paramName: 'key', value: secret }, `credential:${randomUUID()}`) } });
    const mailbox = await createMailbox(member);
    await createMessage(mailbox, { subject: 'Invoice 7', receivedAt: new Date(Date.now() - 60_000) });
    const graph = {
      nodes: [
        { id: 'start', type: 'trigger.mail', version: 1, name: 'Mail', params: { mailboxIds: [mailbox.id] }, position: { x: 0, y: 0 } },
        { id: 'call', type: 'http.request', version: 1, name: 'Call', params: { url: `${api.origin}/echo`, credentialId: id }, position: { x: 200, y: 0 } },
      ],
      connections: [{ from: 'start', output: 'main', to: 'call' }],
    } as GraphInput;
    const { workflow } = await createWorkflow(member, { graph, publish: false });
    const started = await call('POST', `/api/v1/workflows/${workflow.id}/eval-runs`, { cookie: member.cookie, body: {} });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const evalRunId = started.body.evalRun.id as string;
    while ((await driveEvalRun(evalRunId, { budgetMs: 60_000 })) === 'again');
    const cases = await call('GET', `/api/v1/eval-runs/${evalRunId}/cases?limit=200`, { cookie: member.cookie });
    expect(cases.body.cases).toEqual([expect.objectContaining({ status: 'done', triggered: true, error: null })]);
    expect(api.seen).toEqual([]);
    const executionId = cases.body.cases[0].executionId as string;
    const step = await db().executionStep.findFirstOrThrow({ where: { executionId, nodeId: 'call' } });
    expect(step.data).toMatchObject({ url: `${api.origin}/echo?key=••••` });
    expect(JSON.stringify([cases.body, step])).not.toContain(secret);
  });

  it('credential binds to first host: a member’s own connection made before hosts existed binds to the first host a live run sends it to', async () => {
    const id = await legacyConnection(member, 'member', { kind: 'apiKey', headerName: 'X-Api-Key', value: secret });
    // A test run sends nothing, so it binds nothing.
    expect((await testRun(member, { url: `${elsewhere.origin}/x`, credentialId: id })).status).toBe('succeeded');
    const first = await liveRun(member, { url: `${api.origin}/echo`, credentialId: id });
    expect(first.status).toBe('succeeded');
    expect(((await db().credential.findUniqueOrThrow({ where: { id } })) as unknown as { allowedHosts: string[] }).allowedHosts).toEqual([api.host]);
    const second = await liveRun(member, { url: `${elsewhere.origin}/collect`, credentialId: id });
    expect(second.status).toBe('failed');
    expect(second.error).toMatchObject({ code: 'http_credential_host_not_allowed' });
    expect(elsewhere.seen).toEqual([]);
  });
});
