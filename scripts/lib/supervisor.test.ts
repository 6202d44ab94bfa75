import { describe, expect, it } from 'vitest';
import { Supervisor } from './supervisor';

const node = process.execPath;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function eventually(check: () => boolean, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

function child(name: string, script: string, onLine?: (line: string) => void) {
  return { name, command: node, args: ['-e', script], env: process.env, onLine };
}

/** Waits for the first line matching `pattern` from the child's output. */
function lineMatching(pattern: RegExp) {
  let resolveLine: (line: string) => void;
  const line = new Promise<string>((resolve) => (resolveLine = resolve));
  return { line, onLine: (text: string) => pattern.test(text) && resolveLine(text) };
}

describe('Supervisor', () => {
  it('stops children with SIGTERM, then kills what ignores it and whatever they started', async () => {
    const supervisor = new Supervisor(() => {});
    const polite = lineMatching(/^polite up$/);
    const stubborn = lineMatching(/^grandchild \d+$/);
    const politeExit = supervisor.start(child('polite', `process.on('SIGTERM', () => process.exit(0)); console.log('polite up'); setInterval(() => {}, 1000);`, polite.onLine));
    const stubbornExit = supervisor.start(
      child(
        'stubborn',
        `const { spawn } = require('node:child_process');
         const grandchild = spawn('sleep', ['30'], { stdio: 'ignore' });
         process.on('SIGTERM', () => {});
         console.log('grandchild ' + grandchild.pid);
         setInterval(() => {}, 1000);`,
        stubborn.onLine,
      ),
    );
    await polite.line;
    const grandchildPid = Number((await stubborn.line).split(' ')[1]);
    const pids = supervisor.pids();
    expect(pids).toHaveLength(2);

    const started = Date.now();
    await supervisor.stopAll(500);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    for (const pid of [...pids, grandchildPid]) expect(await eventually(() => !alive(pid)), `pid ${pid}`).toBe(true);
    expect(supervisor.pids()).toEqual([]);
    expect((await Promise.all([politeExit.exited, stubbornExit.exited])).map((exit) => exit.expected)).toEqual([true, true]);
  });

  it('reports a child that exits on its own', async () => {
    const supervisor = new Supervisor(() => {});
    expect(await supervisor.start(child('crashy', 'process.exit(3)')).exited).toEqual({ name: 'crashy', code: 3, signal: null, expected: false });
  });

  it('runs a one-shot child to completion and passes its output on, prefixed', async () => {
    const written: string[] = [];
    const supervisor = new Supervisor((line) => written.push(line));
    expect(await supervisor.run(child('build', `console.log('compiled'); console.error('warned'); process.exit(2)`))).toBe(2);
    expect(written).toEqual(expect.arrayContaining(['[build] compiled', '[build] warned']));
  });
});
