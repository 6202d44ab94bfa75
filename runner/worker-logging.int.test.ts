/**
 * What the runner's graphile-worker says at start and per job, through the process logger: no
 * pool-size warning at every start, and a job's success is not an info line (the crontab runs
 * several jobs a minute, so that was a line per tick).
 */
import { run } from 'graphile-worker';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../server/core/log';
import { useTestDatabase } from '../server/testing/test-database';
import { graphileLoggerFor } from './graphile-logger';
import { runnerWorkerPreset } from './worker-preset';

const connectionString = await useTestDatabase();

interface Record_ {
  level: number;
  msg: string;
}

function capturedLogger() {
  const records: Record_[] = [];
  const base = createLogger({ LOG_FORMAT: 'json' }, (line) => records.push(JSON.parse(line) as Record_));
  base.level = 'debug';
  return { records, logger: graphileLoggerFor(base) };
}

describe("the runner's worker logging", () => {
  it('starts with the runner settings without the maxPoolSize-smaller-than-concurrency warning', async () => {
    const { records, logger } = capturedLogger();
    const runner = await run({ connectionString, taskList: { noop: async () => {} }, logger, noHandleSignals: true, preset: runnerWorkerPreset });
    await runner.stop();
    expect(records.filter((record) => record.level >= 40).map((record) => record.msg)).toEqual([]);
  });

  it('logs a successful job at debug, not info', async () => {
    const { records, logger } = capturedLogger();
    let done!: () => void;
    const ran = new Promise<void>((resolve) => (done = resolve));
    const runner = await run({
      connectionString,
      taskList: { tick: async () => done() },
      logger,
      noHandleSignals: true,
      preset: { worker: { ...runnerWorkerPreset.worker, pollInterval: 100 } },
    });
    await runner.addJob('tick', {});
    await ran;
    // The completion line is written right after the task returns: wait for it, then stop.
    for (let i = 0; i < 100 && !records.some((record) => record.msg.startsWith('Completed task')); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await runner.stop();
    const completions = records.filter((record) => record.msg.startsWith('Completed task'));
    expect(completions.length).toBe(1);
    expect(completions[0].level).toBe(20);
  });
});
