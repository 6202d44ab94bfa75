/**
 * Stopping a web process (docs/deployment.md, issue 25 §4): on SIGTERM it stops accepting connections and lets the
 * requests in flight finish (WEB_DRAIN_SECONDS), so a webhook being received when a deployment replaces the
 * process is answered and its run kept, rather than cut and lost to the sender's retry policy. What is still in
 * flight after the drain is cut, and the process exits.
 */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../core/db';
import { webhookTokenHashOf } from '../engine/dispatch/webhook';
import { createMember, type TestMember } from '../testing/factories';
import { useTestDatabase } from '../testing/test-database';
import { webProcesses, type WebProcess } from '../testing/web-processes';
import { createWorkflow } from '../testing/workflow-factories';

const databaseUrl = await useTestDatabase();
const webs = webProcesses({ DATABASE_URL: databaseUrl, WEBHOOK_RATE_LIMIT: '0' });
let member: TestMember;

beforeAll(async () => {
  member = await createMember();
});
afterAll(() => webs.killAll());

async function webhookWorkflow() {
  const { workflow } = await createWorkflow(member, {});
  const token = randomBytes(32).toString('base64url');
  await db().workflow.update({ where: { id: workflow.id }, data: { webhookTokenHash: webhookTokenHashOf(token) } });
  return { workflow, token };
}

/** A raw connection to the web process, and everything it has received so far. */
async function openConnection(web: WebProcess): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const { hostname, port } = new URL(web.url);
  const socket = connect({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, received: () => text, closed };
}

/**
 * The headers of a webhook POST whose body of `length` bytes follows separately. `Expect: 100-continue`: the server
 * answers `100 Continue` once it has begun handling the request, so the test knows the request is in flight (a
 * connection whose request has not been read yet is idle, and a drain closes it).
 */
const webhookHead = (web: WebProcess, token: string, length: number) =>
  `POST /hooks/wf/${token} HTTP/1.1\r\nHost: ${new URL(web.url).host}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`;

/** Waits for the server's `100 Continue` on the connection: its request is being handled. */
async function requestHandled(connection: { received: () => string }): Promise<void> {
  for (const deadline = Date.now() + 30_000; !connection.received().includes('100 Continue'); await sleep(20)) {
    if (Date.now() > deadline) throw new Error(`the web process did not begin handling the request: ${JSON.stringify(connection.received())}`);
  }
}

const exitOf = (web: WebProcess) => new Promise<number | null>((resolve) => web.child.once('exit', (code) => resolve(code)));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SIGTERM drains a web process', () => {
  it('a webhook whose body is still arriving is answered 202 and its run kept; new connections are refused; idle keep-alive connections closed; the process exits 0', async () => {
    const web = await webs.start({ WEB_DRAIN_SECONDS: '20' });
    const { workflow, token } = await webhookWorkflow();
    const body = JSON.stringify({ order: 'drain-1', note: 'x'.repeat(2_000) });
    const inFlight = await openConnection(web);
    inFlight.socket.write(webhookHead(web, token, Buffer.byteLength(body)));
    await requestHandled(inFlight);
    inFlight.socket.write(body.slice(0, 100));
    // A keep-alive connection whose request was answered (a connection that never sent one is not idle to
    // node:http: it is cut at the drain's end like anything else still open).
    const idle = await openConnection(web);
    idle.socket.write(`GET /healthz HTTP/1.1\r\nHost: ${new URL(web.url).host}\r\n\r\n`);
    for (const deadline = Date.now() + 30_000; !/\r\n\r\n/.test(idle.received()); await sleep(20)) {
      if (Date.now() > deadline) throw new Error('no answer to the keep-alive connection\'s request');
    }
    expect(idle.received()).toMatch(/^HTTP\/1\.1 200 /);

    const exited = exitOf(web);
    web.child.kill('SIGTERM');
    await idle.closed;
    // No new connection once it drains (looked at until the signal has been handled), while the request is in flight.
    const { hostname, port } = new URL(web.url);
    const probe = () =>
      new Promise<string>((resolve) => {
        const socket = connect({ host: hostname, port: Number(port) });
        socket.once('connect', () => {
          socket.destroy();
          resolve('connected');
        });
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      });
    let refused = await probe();
    for (const deadline = Date.now() + 10_000; refused !== 'ECONNREFUSED' && Date.now() < deadline; await sleep(50)) refused = await probe();
    expect(refused).toBe('ECONNREFUSED');

    // The rest of the body, well after the signal: still read, answered, the run created.
    await sleep(500);
    inFlight.socket.write(body.slice(100));
    await inFlight.closed;
    const answer = inFlight.received();
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 202 /);
    const executionId = /"executionId":"([0-9a-f-]{36})"/.exec(answer)?.[1];
    const run = await db().execution.findUniqueOrThrow({ where: { id: executionId! } });
    expect(run.workflowId).toBe(workflow.id);
    expect(run.triggerData).toMatchObject({ order: 'drain-1' });
    expect(await exited).toBe(0);
  }, 90_000);

  it('what is still in flight when the drain ends is cut, and the process exits', async () => {
    const web = await webs.start({ WEB_DRAIN_SECONDS: '1' });
    const { token } = await webhookWorkflow();
    const stalled = await openConnection(web);
    stalled.socket.write(webhookHead(web, token, 1_000));
    await requestHandled(stalled);
    stalled.socket.write('{"never":');
    const exited = exitOf(web);
    web.child.kill('SIGTERM');
    await stalled.closed;
    // Exit code 0: cut at the drain's end and closed in order, not by the forced exit (code 1) 10 s later.
    expect(await exited).toBe(0);
    expect(stalled.received()).not.toMatch(/HTTP\/1\.1 202 /);
  }, 90_000);
});
