import { describe, expect, it } from 'vitest';
import { keepAlive, RestartPolicy, type ChildExit, type Incarnation } from './keep-alive';

/** Fake children on a fake clock: each launch waits for the test to say how long it stayed up and how it ended. */
function fakeChildren() {
  let clock = 0;
  const exits: ((exit: ChildExit) => void)[] = [];
  const sleeps: number[] = [];
  const lines: string[] = [];
  const gaveUp: ChildExit[] = [];
  let launched: () => void = () => {};
  return {
    sleeps,
    lines,
    gaveUp,
    get launches() {
      return exits.length;
    },
    options: {
      name: 'runner',
      log: (line: string) => lines.push(line),
      onGiveUp: (exit: ChildExit) => gaveUp.push(exit),
      now: () => clock,
      sleep: async (ms: number, signal: AbortSignal) => {
        sleeps.push(ms);
        if (!signal.aborted) clock += ms;
      },
      launch: (): Incarnation => {
        const exited = new Promise<ChildExit>((resolve) => exits.push(resolve));
        launched();
        return { pid: 1_000 + exits.length, exited };
      },
    },
    /** The latest incarnation ends after `upMs` of life; resolves once the keeper has reacted (a new launch, or it ended). */
    async end(upMs: number, how: Partial<ChildExit> = {}, done?: Promise<void>): Promise<void> {
      const before = exits.length;
      const relaunched = new Promise<void>((resolve) => (launched = resolve));
      clock += upMs;
      exits[before - 1]({ name: 'runner', code: null, signal: 'SIGKILL', expected: false, ...how });
      await Promise.race([relaunched, done ?? new Promise(() => {})]);
    },
  };
}

describe('npm start keeps its children alive', () => {
  it('restarts a child that dies on its own after a delay doubling from 1 s to 30 s, and logs each restart with the child, how it ended and the delay', async () => {
    const children = fakeChildren();
    keepAlive(children.options);
    for (let crash = 0; crash < 7; crash += 1) await children.end(20_000);
    expect(children.launches).toBe(8);
    expect(children.sleeps).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    expect(children.lines[0]).toBe('runner exited unexpectedly (signal SIGKILL) after 20.0 s; restarting it in 1 s (restart 1)');
    expect(children.lines[6]).toContain('restarting it in 30 s (restart 7)');
    expect(children.gaveUp).toEqual([]);
  });

  it('starts the backoff afresh once an incarnation stayed up a minute', async () => {
    const children = fakeChildren();
    keepAlive(children.options);
    await children.end(20_000);
    await children.end(20_000);
    await children.end(20_000);
    await children.end(61_000);
    await children.end(20_000, { signal: null, code: 1 });
    expect(children.sleeps).toEqual([1_000, 2_000, 4_000, 1_000, 2_000]);
    expect(children.lines[4]).toContain('runner exited unexpectedly (code 1)');
  });

  it('gives up on a child that crashes at start 5 times in a row (each within 10 s); a longer life in between resets the count', async () => {
    const children = fakeChildren();
    const keeper = keepAlive(children.options);
    for (let crash = 0; crash < 4; crash += 1) await children.end(2_000);
    await children.end(15_000);
    for (let crash = 0; crash < 4; crash += 1) await children.end(2_000);
    expect(children.gaveUp).toEqual([]);
    await children.end(2_000, { signal: null, code: 1 }, keeper.done);
    await keeper.done;
    expect(children.launches).toBe(10);
    expect(children.gaveUp).toEqual([{ name: 'runner', code: 1, signal: null, expected: false }]);
    expect(children.lines.at(-1)).toBe('runner exited unexpectedly (code 1) 5 times in a row within 10 s of its start; giving up');
  });

  it('never restarts a child whose exit was asked for, nor after stop()', async () => {
    const asked = fakeChildren();
    const keeper = keepAlive(asked.options);
    await asked.end(5_000, { expected: true, signal: 'SIGTERM' }, keeper.done);
    await keeper.done;
    expect(asked.launches).toBe(1);
    expect(asked.lines).toEqual([]);

    const stopped = fakeChildren();
    const second = keepAlive(stopped.options);
    second.stop();
    await stopped.end(5_000, {}, second.done);
    await second.done;
    expect(stopped.launches).toBe(1);
  });
});

describe('RestartPolicy', () => {
  it('caps the delay at 30 s however many crashes in a row', () => {
    const policy = new RestartPolicy();
    let last = { restart: true, delayMs: 0 } as ReturnType<RestartPolicy['crashed']>;
    for (let crash = 0; crash < 50; crash += 1) last = policy.crashed(20_000);
    expect(last).toEqual({ restart: true, delayMs: 30_000 });
  });
});
