/**
 * `npm test`'s middle step: the unit and integration tests (vitest) and, beside them at a low CPU priority, the
 * production build the end-to-end journeys start from (`next build` when `.next` is missing or stale, as `npm start`
 * decides; it then finds the build current and starts at once).
 *
 * Why beside: vitest leaves about a third of the machine's CPU idle (its files wait on PostgreSQL, Dovecot and child
 * processes), and the build is pure CPU (about 120 s of it, a minute on 2 cores) that the end-to-end run otherwise
 * spends before its first journey. Niced (10), the build takes what the tests leave and yields to them.
 *
 * The build's output goes to .data/test-build.log; a failed build fails the step with the log's last lines.
 * Exit code: vitest's, or 1 when the build failed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import path from 'node:path';
import { buildStaleness, nextBuildArgs, saveFingerprint } from './lib/build-fingerprint';

const root = process.cwd();
const require = createRequire(import.meta.url);
const logFile = path.join(root, '.data', 'test-build.log');
/** Below the tests: the build takes the CPU they leave idle. */
const buildNiceness = 10;

function exitOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1))));
}

async function startBuild(): Promise<(() => Promise<boolean>) | null> {
  const { fingerprint, reason } = await buildStaleness(root);
  if (!reason) {
    console.log('production build for the end-to-end journeys: current, not rebuilt');
    return null;
  }
  mkdirSync(path.dirname(logFile), { recursive: true });
  const log = openSync(logFile, 'w');
  const started = Date.now();
  const child = spawn(process.execPath, nextBuildArgs(), {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', log, log],
  });
  // Set before Next starts its workers, which inherit it. Only a speed matter: a build that already ended is left be.
  try {
    if (child.pid) setPriority(child.pid, buildNiceness);
  } catch {
    // ESRCH: it exited at once (its exit code says why).
  }
  console.log(`production build for the end-to-end journeys (${reason}): started beside the tests at low priority, output in ${path.relative(root, logFile)}`);
  // Timed when the build ends, not when the tests are done and ask.
  const exited = exitOf(child).then((code) => ({ code, seconds: ((Date.now() - started) / 1000).toFixed(0) }));
  return async () => {
    const { code, seconds } = await exited;
    if (code !== 0) {
      const tail = readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n');
      console.error(`production build failed (exit ${code}) after ${seconds} s; the end of its output:\n${tail}`);
      return false;
    }
    // The fingerprint taken before the build: a file edited meanwhile makes `npm start` build again.
    await saveFingerprint(root, fingerprint);
    console.log(`production build for the end-to-end journeys: made in ${seconds} s beside the tests`);
    return true;
  };
}

/** A package's command, as npm would run it (vitest exports no path to its command). */
function binOf(packageName: string, command: string): string {
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: Record<string, string> };
  return path.join(path.dirname(manifestPath), bin[command]!);
}

const buildEnded = await startBuild();
// Arguments go to vitest (a file filter, for instance).
const vitest = spawn(process.execPath, [binOf('vitest', 'vitest'), 'run', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
const testsCode = await exitOf(vitest);
const built = buildEnded ? await buildEnded() : true;
process.exit(testsCode !== 0 ? testsCode : built ? 0 : 1);
