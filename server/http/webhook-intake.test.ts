import { describe, expect, it } from 'vitest';
import { heldTask } from '../testing/held-task';
import { maxBehindTracked, WebhookIntake } from './webhook-intake';

/** The call's answer, or the error it was refused with. */
const settle = <T>(promise: Promise<T>) => promise.then((value) => value, (error: unknown) => error);

const refusal = { code: 'internal.busy', status: 503, details: { reason: 'intake', retryAfterSeconds: 1 }, headers: { 'Retry-After': '1' } };

describe('WebhookIntake', () => {
  it('starts `concurrency` calls at once, lets `queue` wait, refuses the next at once: 503 internal.busy, Retry-After 1', async () => {
    const intake = new WebhookIntake(1, 2);
    const calls = [heldTask(), heldTask(), heldTask(), heldTask()];
    const answers = calls.map((call, index) => settle(intake.run(`token-${index}`, call.task)));
    expect(calls.map((call) => call.started())).toEqual([true, false, false, false]);
    expect(await answers[3]).toMatchObject(refusal);
    calls[0]!.finish();
    await answers[0];
    expect(calls[1]!.started()).toBe(true);
    for (const call of calls) call.finish();
    expect(await Promise.all(answers.slice(0, 3))).toEqual(['ok', 'ok', 'ok']);
    expect(intake.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('one token holds at most a quarter of the line: its next call is refused while another token still waits its turn', async () => {
    const intake = new WebhookIntake(1, 8);
    expect(intake.perTokenWaiting).toBe(2);
    const running = heldTask();
    const first = settle(intake.run('flood', running.task));
    const flood = [heldTask(), heldTask(), heldTask()];
    const floodAnswers = flood.map((call) => settle(intake.run('flood', call.task)));
    expect(await floodAnswers[2]).toMatchObject(refusal);
    const other = heldTask();
    const otherAnswer = settle(intake.run('quiet', other.task));
    expect(intake.load()).toEqual({ running: 1, waiting: 3 });
    for (const call of [running, ...flood, other]) call.finish();
    expect(await Promise.all([first, floodAnswers[0], floodAnswers[1], otherAnswer])).toEqual(['ok', 'ok', 'ok', 'ok']);
  });

  it('a waiting call whose sender hangs up leaves the line without starting, and gives its token’s place back', async () => {
    const intake = new WebhookIntake(1, 4);
    const running = heldTask();
    const first = settle(intake.run('a', running.task));
    const departure = new AbortController();
    const gone = heldTask();
    const goneAnswer = settle(intake.run('b', gone.task, departure.signal));
    departure.abort(new Error('client gone'));
    expect(await goneAnswer).toMatchObject({ code: 'internal.busy', details: { reason: 'client_gone' } });
    expect(intake.load()).toEqual({ running: 1, waiting: 0 });
    // Token b's one place (a quarter of 4) is free again: its next call waits instead of being refused.
    const again = heldTask();
    const againAnswer = settle(intake.run('b', again.task));
    expect(intake.load()).toEqual({ running: 1, waiting: 1 });
    running.finish();
    again.finish();
    expect(await Promise.all([first, againAnswer])).toEqual(['ok', 'ok']);
    expect(gone.started()).toBe(false);
  });

  it('a call gives its place back however it ends: failed, or refused for a full line', async () => {
    const intake = new WebhookIntake(1, 4);
    expect(intake.perTokenWaiting).toBe(1);
    // A failing call frees its slot and its token's place.
    const running = heldTask();
    const first = settle(intake.run('a', running.task));
    const failing = settle(intake.run('b', () => Promise.reject(new Error('no such workflow'))));
    running.finish();
    expect(await first).toBe('ok');
    expect(await failing).toMatchObject({ message: 'no such workflow' });
    // The line full of other tokens: a call of `e` is refused by the line, then waits normally once there is room.
    const blocker = heldTask();
    const blocked = settle(intake.run('x', blocker.task));
    const waiters = ['a', 'b', 'c', 'd'].map((token) => {
      const call = heldTask();
      return { call, answer: settle(intake.run(token, call.task)) };
    });
    expect(await settle(intake.run('e', async () => 'ok'))).toMatchObject(refusal);
    blocker.finish();
    for (const waiter of waiters) waiter.call.finish();
    await Promise.all([blocked, ...waiters.map((waiter) => waiter.answer)]);
    const again = heldTask();
    const runningAgain = settle(intake.run('x', again.task));
    const eWaits = settle(intake.run('e', async () => 'ok'));
    again.finish();
    expect(await Promise.all([runningAgain, eWaits])).toEqual(['ok', 'ok']);
    expect(intake.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('a workflow whose look-up counted as many queued runs as its slots starts half the calls at once; another keeps the rest', async () => {
    const intake = new WebhookIntake(4, 10);
    expect(intake.behindConcurrency).toBe(2);
    intake.noteBacklog('slow', { queued: 10, slots: 10 });
    const slow = [heldTask(), heldTask(), heldTask()];
    const slowAnswers = slow.map((call) => settle(intake.run('slow', call.task)));
    expect(slow.map((call) => call.started())).toEqual([true, true, false]);
    // The two places the slow workflow leaves are another workflow's.
    const fast = [heldTask(), heldTask(), heldTask()];
    const fastAnswers = fast.map((call) => settle(intake.run('fast', call.task)));
    expect(fast.map((call) => call.started())).toEqual([true, true, false]);
    expect(intake.load()).toEqual({ running: 4, waiting: 2 });
    // A slow call ends: its half lets the next slow call in, which then waits for a slot of the whole behind the fast one.
    slow[0]!.finish();
    await slowAnswers[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(fast[2]!.started()).toBe(true);
    expect(slow[2]!.started()).toBe(false);
    fast[0]!.finish();
    await fastAnswers[0];
    expect(slow[2]!.started()).toBe(true);
    for (const call of [...slow, ...fast]) call.finish();
    expect(await Promise.all([...slowAnswers, ...fastAnswers])).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'ok']);
    expect(intake.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('a workflow stays behind for a second after the look-up that saw its backlog, or until a look-up sees fewer runs queued than slots', () => {
    const intake = new WebhookIntake(4, 10);
    const now = 1_000_000;
    intake.noteBacklog('a', { queued: 9, slots: 10 }, now);
    expect(intake.isBehind('a', now)).toBe(false);
    intake.noteBacklog('a', { queued: 10, slots: 10 }, now);
    expect(intake.isBehind('a', now + 999)).toBe(true);
    expect(intake.isBehind('a', now + 1000)).toBe(false);
    intake.noteBacklog('a', { queued: 1000, slots: 100 }, now);
    intake.noteBacklog('a', { queued: 3, slots: 100 }, now + 10);
    expect(intake.isBehind('a', now + 20)).toBe(false);
  });

  it('remembers a bounded number of workflows as behind, forgetting the longest-marked first', () => {
    const intake = new WebhookIntake(4, 10);
    const now = 1_000_000;
    for (let index = 0; index <= maxBehindTracked; index += 1) intake.noteBacklog(`token-${index}`, { queued: 10, slots: 10 }, now);
    expect(intake.isBehind('token-0', now)).toBe(false);
    expect(intake.isBehind('token-1', now)).toBe(true);
    expect(intake.isBehind(`token-${maxBehindTracked}`, now)).toBe(true);
  });

  it('the line counts the calls waiting for either width: a full line refuses whichever workflow comes next', async () => {
    const intake = new WebhookIntake(2, 2);
    intake.noteBacklog('slow', { queued: 2, slots: 1 });
    const running = [heldTask(), heldTask()];
    const runningAnswers = [settle(intake.run('slow', running[0]!.task)), settle(intake.run('fast', running[1]!.task))];
    // One waits for the slow workflow's half, one for a slot of the whole: the line of 2 is full.
    const waiters = [heldTask(), heldTask()];
    const waiterAnswers = [settle(intake.run('slow', waiters[0]!.task)), settle(intake.run('other', waiters[1]!.task))];
    expect(intake.load()).toEqual({ running: 2, waiting: 2 });
    expect(await settle(intake.run('fast', async () => 'ok'))).toMatchObject(refusal);
    for (const call of [...running, ...waiters]) call.finish();
    expect(await Promise.all([...runningAnswers, ...waiterAnswers])).toEqual(['ok', 'ok', 'ok', 'ok']);
  });
});
