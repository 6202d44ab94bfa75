import { describe, expect, it } from 'vitest';
import { heldTask } from '../testing/held-task';
import { BoundedGate, GateFullError } from './bounded-gate';

describe('BoundedGate', () => {
  it('runs up to `concurrency` tasks, queues up to `maxWaiting`, refuses the rest at once', async () => {
    const gate = new BoundedGate(2, 1);
    const tasks = [heldTask(), heldTask(), heldTask(), heldTask()];
    const results = tasks.map((entry) => gate.run(entry.task).then(
      (value) => value,
      (error: unknown) => error,
    ));
    expect(tasks.map((entry) => entry.started())).toEqual([true, true, false, false]);
    expect(gate.load()).toEqual({ running: 2, waiting: 1 });
    expect(await results[3]).toBeInstanceOf(GateFullError);

    tasks[0].finish();
    expect(await results[0]).toBe('ok');
    await Promise.resolve();
    expect(tasks[2].started()).toBe(true);
    expect(gate.load()).toEqual({ running: 2, waiting: 0 });

    tasks[1].finish();
    tasks[2].finish();
    expect(await Promise.all(results.slice(0, 3))).toEqual(['ok', 'ok', 'ok']);
    expect(gate.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the slot of a task that fails', async () => {
    const gate = new BoundedGate(1, 0);
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(gate.run(async () => 'next')).resolves.toBe('next');
  });
});
