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

/** The headers of a webhook POST whose body of `length` bytes follows separately. */
const webhookHead = (web: WebProcess, token: string, length: number) =>
  `POST /hooks/wf/${token} HTTP/1.1\r\nHost: ${new URL(web.url).host}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

const exitOf = (web: WebProcess) => new Promise<number | null>((resolve) => web.child.once('exit', (code) => resolve(code)));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SIGTERM drains a web process', () => {
  it('a webhook whose body is still arriving is answered 202 and its run kept; new connections are refused; idle keep-alive connections closed; the process exits 0', async () => {
    const web = await webs.start({ WEB_DRAIN_SECONDS: '20' });
    const { workflow, token } = await webhookWorkflow();
    const body = JSON.stringify({ order: 'drain-1', note: 'x'.repeat(2_000) });
    const inFlight = await openConnection(web);
    inFlight.socket.write(webhookHead(web, token, Buffer.byteLength(body)) + body.slice(0, 100));
    const idle = await openConnection(web);
    await sleep(200);

    const exited = exitOf(web);
    web.child.kill('SIGTERM');
    await idle.closed;
    // No new connection once it drains.
    const { hostname, port } = new URL(web.url);
    const refused = await new Promise<string>((resolve) => {
      const probe = connect({ host: hostname, port: Number(port) });
      probe.once('connect', () => {
        probe.destroy();
        resolve('connected');
      });
      probe.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');

    // The rest of the body, well after the signal: still read, answered, the run created.
    await sleep(500);
    inFlight.socket.write(body.slice(100));
    await inFlight.closed;
    const answer = inFlight.received();
    expect(answer).toMatch(/^HTTP\/1\.1 202 /);
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
    stalled.socket.write(webhookHead(web, token, 1_000) + '{"never":');
    await sleep(200);
    const exited = exitOf(web);
    web.child.kill('SIGTERM');
    await stalled.closed;
    // Exit code 0: cut at the drain's end and closed in order, not by the forced exit (code 1) 10 s later.
    expect(await exited).toBe(0);
    expect(stalled.received()).not.toMatch(/^HTTP\/1\.1 202 /);
  }, 90_000);
});
