import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const guardModule = fileURLToPath(new URL('./orphan-guard.ts', import.meta.url));
const scratch = await mkdtemp(path.join(tmpdir(), 'mailflow-guard-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function eventually(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && !check()) await new Promise((resolve) => setTimeout(resolve, 100));
  return check();
}

/**
 * A parent that starts a detached `sleep` (its own process group, like PostgreSQL or the web child),
 * guards it, optionally disarms the guard, prints the sleeper's pid and waits to be killed.
 */
async function parentWithDetachedChild(disarm: boolean): Promise<{ parentPid: number; orphanPid: number }> {
  const script = path.join(scratch, `parent-${disarm}.ts`);
  await writeFile(
    script,
    `import { spawn } from 'node:child_process';
     import { guardAgainstOrphans } from ${JSON.stringify(guardModule)};
     const sleeper = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
     sleeper.unref();
     const guard = guardAgainstOrphans([-sleeper.pid!], { signal: 'SIGTERM', graceMs: 2000 });
     ${disarm ? 'guard.disarm();' : ''}
     console.log(String(sleeper.pid));
     setInterval(() => {}, 1000);`,
  );
  const parent = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve) => readline.createInterface({ input: parent.stdout! }).once('line', resolve));
  return { parentPid: parent.pid!, orphanPid: Number(line) };
}

describe('guardAgainstOrphans', () => {
  it('stops the guarded process group when its parent is killed outright', async () => {
    const { parentPid, orphanPid } = await parentWithDetachedChild(false);
    expect(alive(orphanPid)).toBe(true);
    process.kill(parentPid, 'SIGKILL');
    expect(await eventually(() => !alive(orphanPid), 5000)).toBe(true);
  });

  it('does nothing once disarmed', async () => {
    const { parentPid, orphanPid } = await parentWithDetachedChild(true);
    process.kill(parentPid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(alive(orphanPid)).toBe(true);
    process.kill(-orphanPid, 'SIGKILL');
  });
});
