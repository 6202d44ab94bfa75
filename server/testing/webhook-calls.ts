/**
 * The webhook route's integration tests' kit (server/http/webhook-*.int.test.ts): a bridge server in front of the
 * API handler (one trusted proxy, so each call may come from its own address), a member, live webhook workflows
 * with their tokens, and calls to `POST /hooks/wf/{token}`. Call `useWebhookCalls` at a file's top level: it
 * registers the server's start and stop as that file's hooks.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { resetConfigForTests } from '../core/config';
import { seal } from '../core/crypto/secret-box';
import { db } from '../core/db';
import type { GraphInput } from '../engine/contract/graph';
import { webhookSecretPurpose, webhookTokenHashOf } from '../engine/dispatch/webhook';
import { startBridgeServer, type BridgeServer } from './bridge-server';
import { createMember, type TestMember } from './factories';
import { createWorkflow } from './workflow-factories';

export function useWebhookCalls(handler: (request: Request) => Promise<Response>) {
  let server: BridgeServer | undefined;
  let member: TestMember | undefined;
  beforeAll(async () => {
    // One trusted proxy in front: each test sends from its own X-Forwarded-For address, so the per-IP limit of one never touches another.
    server = await startBridgeServer(handler, { trustProxy: true });
    member = await createMember();
  });
  afterAll(() => server?.close());

  let ipCounter = 0;
  const uniqueIp = () => `203.0.113.${(ipCounter += 1)}`;

  return {
    get base(): string {
      return server!.base;
    },
    get member(): TestMember {
      return member!;
    },
    uniqueIp,

    /** A live webhook workflow with its token (and secret, when asked). */
    async hook(options: { publish?: boolean; paused?: boolean; secret?: boolean; graph?: GraphInput } = {}) {
      const { workflow, version } = await createWorkflow(member!, { publish: options.publish, paused: options.paused, graph: options.graph });
      const token = randomBytes(32).toString('base64url');
      const secret = options.secret ? randomBytes(24).toString('hex') : null;
      await db().workflow.update({
        where: { id: workflow.id },
        data: { webhookTokenHash: webhookTokenHashOf(token), webhookSecretEnc: secret ? seal(secret, webhookSecretPurpose(workflow.id)) : null },
      });
      return { workflow, version, token, secret };
    },

    async post(token: string, body: string, headers: Record<string, string> = {}, ip = uniqueIp()) {
      const response = await fetch(`${server!.base}/hooks/wf/${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, ...headers },
        body,
      });
      const text = await response.text();
      return { status: response.status, body: text ? (JSON.parse(text) as Record<string, any>) : null, retryAfter: response.headers.get('retry-after') };
    },
  };
}

type Setting = 'WEBHOOK_RATE_LIMIT' | 'WEBHOOK_MAX_QUEUED' | 'WEBHOOK_CONCURRENCY' | 'WEBHOOK_QUEUE';

/** Runs `body` with the setting set, then puts the environment and the parsed configuration back. */
export async function withSetting(name: Setting, value: string, body: () => Promise<void>) {
  const before = process.env[name];
  process.env[name] = value;
  resetConfigForTests();
  try {
    await body();
  } finally {
    if (before === undefined) delete process.env[name];
    else process.env[name] = before;
    resetConfigForTests();
  }
}

export const executionsOf = (workflowId: string) => db().execution.findMany({ where: { workflowId } });
