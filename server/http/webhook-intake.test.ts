import { describe, expect, it } from 'vitest';
import { WebhookIntake } from './webhook-intake';

/** A call whose work finishes when the test says so. */
function heldCall() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  let started = false;
  return {
    work: async () => {
      started = true;
      await done;
      return 'started';
    },
    finish,
    started: () => started,
  };
}

/** The call's answer, or the error it was refused with. */
const settle = <T>(promise: Promise<T>) => promise.then((value) => value, (error: unknown) => error);

const refusal = { code: 'internal.busy', status: 503, details: { reason: 'intake', retryAfterSeconds: 1 }, headers: { 'Retry-After': '1' } };

describe('WebhookIntake', () => {
  it('starts `concurrency` calls at once, lets `queue` wait, refuses the next at once: 503 internal.busy, Retry-After 1', async () => {
    const intake = new WebhookIntake(1, 2);
    const calls = [heldCall(), heldCall(), heldCall(), heldCall()];
    const answers = calls.map((call, index) => settle(intake.run(`token-${index}`, call.work)));
    expect(calls.map((call) => call.started())).toEqual([true, false, false, false]);
    expect(await answers[3]).toMatchObject(refusal);
    calls[0]!.finish();
    await answers[0];
    expect(calls[1]!.started()).toBe(true);
    for (const call of calls) call.finish();
    expect(await Promise.all(answers.slice(0, 3))).toEqual(['started', 'started', 'started']);
    expect(intake.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('one token holds at most a quarter of the line: its next call is refused while another token still waits its turn', async () => {
    const intake = new WebhookIntake(1, 8);
    expect(intake.perTokenWaiting).toBe(2);
    const running = heldCall();
    const first = settle(intake.run('flood', running.work));
    const flood = [heldCall(), heldCall(), heldCall()];
    const floodAnswers = flood.map((call) => settle(intake.run('flood', call.work)));
    expect(await floodAnswers[2]).toMatchObject(refusal);
    const other = heldCall();
    const otherAnswer = settle(intake.run('quiet', other.work));
    expect(intake.load()).toEqual({ running: 1, waiting: 3 });
    for (const call of [running, ...flood, other]) call.finish();
    expect(await Promise.all([first, floodAnswers[0], floodAnswers[1], otherAnswer])).toEqual(['started', 'started', 'started', 'started']);
  });

  it('a call gives its place back however it ends: failed, or refused for a full line', async () => {
    const intake = new WebhookIntake(1, 4);
    expect(intake.perTokenWaiting).toBe(1);
    // A failing call frees its slot and its token's place.
    const running = heldCall();
    const first = settle(intake.run('a', running.work));
    const failing = settle(intake.run('b', () => Promise.reject(new Error('no such workflow'))));
    running.finish();
    expect(await first).toBe('started');
    expect(await failing).toMatchObject({ message: 'no such workflow' });
    // The line full of other tokens: a call of `e` is refused by the line, then waits normally once there is room.
    const blocker = heldCall();
    const blocked = settle(intake.run('x', blocker.work));
    const waiters = ['a', 'b', 'c', 'd'].map((token) => {
      const call = heldCall();
      return { call, answer: settle(intake.run(token, call.work)) };
    });
    expect(await settle(intake.run('e', async () => 'started'))).toMatchObject(refusal);
    blocker.finish();
    for (const waiter of waiters) waiter.call.finish();
    await Promise.all([blocked, ...waiters.map((waiter) => waiter.answer)]);
    const again = heldCall();
    const runningAgain = settle(intake.run('x', again.work));
    const eWaits = settle(intake.run('e', async () => 'started'));
    again.finish();
    expect(await Promise.all([runningAgain, eWaits])).toEqual(['started', 'started']);
    expect(intake.load()).toEqual({ running: 0, waiting: 0 });
  });
});
