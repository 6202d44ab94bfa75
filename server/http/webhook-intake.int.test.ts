/**
 * The webhook intake through the real route (webhook-intake.ts): WEBHOOK_CONCURRENCY calls start at once, WEBHOOK_QUEUE
 * wait their turn in the process, one workflow holds a quarter of the line at most, and a waiting call whose sender
 * hangs up starts nothing. `executions` is held by another connection, so a started call's run waits in the database.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { config } from '../core/config';
import { db } from '../core/db';
import { useTestDatabase } from '../testing/test-database';
import { executionsOf, useWebhookCalls, withSetting } from '../testing/webhook-calls';
import { handleApiRequest } from './api-handler';
import { webhookIntake } from './webhook-intake';

await useTestDatabase();

const calls = useWebhookCalls(handleApiRequest);
const { hook, post, uniqueIp } = calls;

describe('POST /hooks/wf/{token}: WEBHOOK_CONCURRENCY and WEBHOOK_QUEUE', () => {
  /** Until `release`, another connection holds `executions` (EXCLUSIVE): a call's look-up reads, its run's row waits. */
  async function holdExecutions() {
    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE executions IN EXCLUSIVE MODE');
    return {
      /**
       * Calls whose statement waits for the lock now. The holder's transaction would otherwise read the list of
       * backends as it was at its first look (PostgreSQL keeps that snapshot for the transaction): a connection
       * the pool opened since would not be counted.
       */
      waiting: async () => {
        await holder.query('SELECT pg_stat_clear_snapshot()');
        const { rows } = await holder.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
        return Number(rows[0].n);
      },
      release: async () => {
        await holder.query('ROLLBACK');
        await holder.end();
      },
    };
  }

  async function until(condition: () => Promise<boolean>) {
    for (let tries = 0; !(await condition()); tries += 1) {
      if (tries > 200) throw new Error('condition not met in 10 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('that many calls start at once and that many more wait their turn; the next is refused at once: 503 internal.busy, Retry-After 1', async () => {
    const { workflow, token } = await hook();
    await withSetting('WEBHOOK_CONCURRENCY', '1', () =>
      withSetting('WEBHOOK_QUEUE', '1', async () => {
        const lock = await holdExecutions();
        let first: Promise<Awaited<ReturnType<typeof post>>>;
        let second: Promise<Awaited<ReturnType<typeof post>>>;
        try {
          first = post(token, '{"n":1}');
          await until(async () => (await lock.waiting()) === 1);
          second = post(token, '{"n":2}');
          // The second waits in the process, not in the database: still one statement waiting for the lock.
          await new Promise((resolve) => setTimeout(resolve, 300));
          expect(await lock.waiting()).toBe(1);
          const third = await post(token, '{"n":3}');
          expect(third.status).toBe(503);
          expect(third.body!.error.code).toBe('internal.busy');
          expect(third.body!.error.details).toMatchObject({ reason: 'intake', retryAfterSeconds: 1 });
          expect(third.retryAfter).toBe('1');
        } finally {
          await lock.release();
        }
        // Once the first call's run is written, the waiting one takes its turn: both started, the refused one nothing.
        expect((await first!).status).toBe(202);
        expect((await second!).status).toBe(202);
        const runs = await executionsOf(workflow.id);
        expect(runs.map((run) => (run.triggerData as { n: number }).n).sort()).toEqual([1, 2]);
        expect((await post(token, '{"n":4}')).status).toBe(202);
      }),
    );
  });

  it("one workflow's calls hold at most a quarter of the line: its flood is refused while another workflow's call waits its turn", async () => {
    const flooded = await hook();
    const quiet = await hook();
    await withSetting('WEBHOOK_CONCURRENCY', '1', () =>
      withSetting('WEBHOOK_QUEUE', '4', async () => {
        const lock = await holdExecutions();
        const started: Promise<Awaited<ReturnType<typeof post>>>[] = [];
        try {
          started.push(post(flooded.token, '{"n":1}'));
          await until(async () => (await lock.waiting()) === 1);
          started.push(post(flooded.token, '{"n":2}'));
          await new Promise((resolve) => setTimeout(resolve, 300));
          const refused = await post(flooded.token, '{"n":3}');
          expect(refused.status).toBe(503);
          expect(refused.body!.error.details.reason).toBe('intake');
          started.push(post(quiet.token, '{"n":1}'));
          await new Promise((resolve) => setTimeout(resolve, 300));
        } finally {
          await lock.release();
        }
        expect((await Promise.all(started)).map((answer) => answer.status)).toEqual([202, 202, 202]);
        expect(await executionsOf(flooded.workflow.id)).toHaveLength(2);
        expect(await executionsOf(quiet.workflow.id)).toHaveLength(1);
      }),
    );
  });

  it('a waiting call whose sender hangs up starts nothing: a sender that timed out and retries gets one run', async () => {
    const { workflow, token } = await hook();
    await withSetting('WEBHOOK_CONCURRENCY', '1', () =>
      withSetting('WEBHOOK_QUEUE', '2', async () => {
        const lock = await holdExecutions();
        let first: Promise<Awaited<ReturnType<typeof post>>>;
        try {
          first = post(token, '{"n":1}');
          await until(async () => (await lock.waiting()) === 1);
          // The second call waits in the process; its sender gives up (a client timeout) and the connection closes.
          const timeout = new AbortController();
          const abandoned = fetch(`${calls.base}/hooks/wf/${token}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': uniqueIp() },
            body: '{"n":2}',
            signal: timeout.signal,
          }).catch((error: unknown) => error);
          await new Promise((resolve) => setTimeout(resolve, 300));
          timeout.abort();
          expect(await abandoned).toMatchObject({ name: 'AbortError' });
          await new Promise((resolve) => setTimeout(resolve, 100));
        } finally {
          await lock.release();
        }
        expect((await first!).status).toBe(202);
        // Its turn came after the first call's run: it started nothing.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const runs = await executionsOf(workflow.id);
        expect(runs.map((run) => (run.triggerData as { n: number }).n)).toEqual([1]);
      }),
    );
  });

  it('a workflow whose look-up counted as many queued runs as its slots starts half the calls at once; another workflow takes the rest', async () => {
    const slow = await hook();
    const other = await hook();
    await db().workflow.update({ where: { id: slow.workflow.id }, data: { maxConcurrency: 2 } });
    await withSetting('WEBHOOK_CONCURRENCY', '4', () =>
      withSetting('WEBHOOK_QUEUE', '10', async () => {
        // No runner takes runs here: they stay queued, as many as the workflow's slots.
        for (const n of [1, 2]) expect((await post(slow.token, `{"n":${n}}`)).status).toBe(202);
        const lock = await holdExecutions();
        const started: Promise<Awaited<ReturnType<typeof post>>>[] = [];
        try {
          // A call's look-up counts them, which puts the workflow behind for a second (this one is then refused for
          // its key, so it writes nothing the lock would hold).
          expect((await post(slow.token, '{}', { 'idempotency-key': 'k'.repeat(201) })).status).toBe(400);
          for (const n of [3, 4, 5]) started.push(post(slow.token, `{"n":${n}}`));
          await until(async () => (await lock.waiting()) === 2);
          // The third waits in the process for the slow workflow's half of the intake (2 of 4).
          await new Promise((resolve) => setTimeout(resolve, 300));
          expect(await lock.waiting()).toBe(2);
          for (const n of [1, 2, 3]) started.push(post(other.token, `{"n":${n}}`));
          // The other workflow takes the two places left, and its third call waits for a slot of the whole.
          await until(async () => (await lock.waiting()) === 4);
          await new Promise((resolve) => setTimeout(resolve, 300));
          expect(await lock.waiting()).toBe(4);
        } finally {
          await lock.release();
        }
        expect((await Promise.all(started)).map((answer) => answer.status)).toEqual([202, 202, 202, 202, 202, 202]);
        expect(await executionsOf(slow.workflow.id)).toHaveLength(5);
        expect(await executionsOf(other.workflow.id)).toHaveLength(3);
      }),
    );
  });

  it('the look-up counts queued runs up to the workflow’s slots even with WEBHOOK_MAX_QUEUED off', async () => {
    const { workflow, token } = await hook();
    await db().workflow.update({ where: { id: workflow.id }, data: { maxConcurrency: 2 } });
    await withSetting('WEBHOOK_MAX_QUEUED', '0', async () => {
      expect((await post(token, '{"n":1}')).status).toBe(202);
      // One run queued, fewer than the two slots: not behind.
      expect((await post(token, '{"n":2}')).status).toBe(202);
      expect(webhookIntake().isBehind(token)).toBe(false);
      // Two queued: this call's look-up puts the workflow behind.
      expect((await post(token, '{"n":3}')).status).toBe(202);
      expect(webhookIntake().isBehind(token)).toBe(true);
    });
  });

  it('a call that fails inside the intake gives its turn back', async () => {
    const { token } = await hook({ paused: true });
    await withSetting('WEBHOOK_CONCURRENCY', '1', () =>
      withSetting('WEBHOOK_QUEUE', '0', async () => {
        for (let index = 0; index < 3; index += 1) expect((await post(token, '{}')).status).toBe(404);
      }),
    );
  });

  it('values out of bounds stop the configuration with the variable named', async () => {
    for (const [name, value] of [
      ['WEBHOOK_CONCURRENCY', '0'],
      ['WEBHOOK_CONCURRENCY', '65'],
      ['WEBHOOK_CONCURRENCY', 'some'],
      ['WEBHOOK_QUEUE', '-1'],
      ['WEBHOOK_QUEUE', '10001'],
      ['WEBHOOK_QUEUE', '1.5'],
    ] as const) {
      await withSetting(name, value, async () => {
        expect(() => config()).toThrow(new RegExp(name));
      });
    }
  });
});
