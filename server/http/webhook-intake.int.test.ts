/**
 * The webhook intake through the real route (webhook-intake.ts): WEBHOOK_CONCURRENCY calls start at once, WEBHOOK_QUEUE
 * wait their turn in the process, one workflow holds a quarter of the line at most, and a waiting call whose sender
 * hangs up starts nothing. `executions` is held by another connection, so a started call's run waits in the database.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { config } from '../core/config';
import { useTestDatabase } from '../testing/test-database';
import { executionsOf, useWebhookCalls, withSetting } from '../testing/webhook-calls';
import { handleApiRequest } from './api-handler';

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
      /** Calls whose statement waits for the lock now. */
      waiting: async () =>
        Number(
          (await holder.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).rows[0].n,
        ),
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
