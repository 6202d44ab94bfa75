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

  it('a waiting task whose caller gives up (signal) leaves the line and never runs; the next waiter takes the slot', async () => {
    const gate = new BoundedGate(1, 2);
    const running = heldTask();
    const first = gate.run(running.task);
    const leaving = heldTask();
    const controller = new AbortController();
    const left = gate.run(leaving.task, controller.signal).then(
      () => 'ran',
      (error: unknown) => error,
    );
    const next = heldTask();
    const third = gate.run(next.task);
    expect(gate.load()).toEqual({ running: 1, waiting: 2 });

    const reason = new Error('client gone');
    controller.abort(reason);
    expect(await left).toBe(reason);
    expect(gate.load()).toEqual({ running: 1, waiting: 1 });

    running.finish();
    await first;
    await Promise.resolve();
    expect(next.started()).toBe(true);
    expect(leaving.started()).toBe(false);
    next.finish();
    await third;
    expect(gate.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('a task whose signal is already aborted is refused at once without a slot; a started task runs to its end', async () => {
    const gate = new BoundedGate(1, 1);
    const reason = new Error('client gone');
    const task = heldTask();
    await expect(gate.run(task.task, AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(task.started()).toBe(false);
    expect(gate.load()).toEqual({ running: 0, waiting: 0 });

    const controller = new AbortController();
    const started = heldTask();
    const answer = gate.run(started.task, controller.signal);
    controller.abort(reason);
    started.finish();
    await expect(answer).resolves.toBe('ok');
    expect(gate.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the slot of a task that fails', async () => {
    const gate = new BoundedGate(1, 0);
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(gate.run(async () => 'next')).resolves.toBe('next');
  });
});
