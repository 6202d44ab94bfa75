/**
 * Protection against orphans when this process dies without cleaning up (SIGKILL, a crash, a test
 * runner killing our process group). Processes we start in their own process group (PostgreSQL,
 * the web and runner children of `npm start`) survive us in that case; a small detached guardian
 * notices our death (its stdin, a pipe from us, reaches end of input) and stops them.
 *
 * On an orderly shutdown we stop the targets ourselves and `disarm()` the guardian first.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface OrphanGuard {
  disarm(): void;
}

const guardianProgram = fileURLToPath(new URL('./orphan-guard-process.mjs', import.meta.url));

/** `targets`: pids, or negative process-group ids. */
export function guardAgainstOrphans(targets: number[], options: { signal: NodeJS.Signals; graceMs: number }): OrphanGuard {
  const guardian = spawn(process.execPath, [guardianProgram, options.signal, String(options.graceMs), ...targets.map(String)], {
    detached: true, // its own session: whatever kills our process group does not kill it
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  guardian.on('error', () => {}); // without a guardian we only lose the protection
  // Neither the guardian nor its pipe may keep our event loop alive.
  guardian.unref();
  (guardian.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  let disarmed = false;
  return {
    disarm() {
      if (disarmed) return;
      disarmed = true;
      guardian.kill('SIGKILL');
    },
  };
}
