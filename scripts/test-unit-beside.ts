/**
 * `npm test`'s middle step: the unit and integration tests (vitest) and, beside them at a low CPU priority, the
 * checks (types and lint) and then the production build the end-to-end journeys start from (`next build` when
 * `.next` is missing or stale, as `npm start` decides; it then finds the build current and starts at once).
 *
 * Why beside: vitest leaves about a third of the machine's CPU idle (its files wait on PostgreSQL, Dovecot and child
 * processes), while the checks (tsc and eslint, about two minutes on 2 cores) and the build (about 120 s of CPU) are
 * pure CPU that ran before the tests and before the first journey. Niced (10), they take what the tests leave and
 * yield to them. The build waits for the checks: tsc reads `.next/types`, which the build rewrites.
 *
 * Their output goes to .data/test-checks.log and .data/test-build.log; a failure fails the step with the log's end.
 * Exit code: vitest's, or 1 when the checks or the build failed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import path from 'node:path';
import { buildStaleness, nextBuildArgs, saveFingerprint } from './lib/build-fingerprint';

const root = process.cwd();
const require = createRequire(import.meta.url);
const checksLog = path.join(root, '.data', 'test-checks.log');
const buildLog = path.join(root, '.data', 'test-build.log');
/** Below the tests: the background work takes the CPU they leave idle. */
const backgroundNiceness = 10;

function exitOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1))));
}

/** A package's command, as npm would run it (vitest, tsc and eslint export no path to theirs). */
function binOf(packageName: string, command: string): string {
  const manifestPath = require.resolve(`${packageName}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: string | Record<string, string> };
  return path.join(path.dirname(manifestPath), typeof bin === 'string' ? bin : bin[command]!);
}

/** Starts a niced Node program writing to `log`; resolves with its exit code and seconds once it ends. */
function startNiced(args: string[], log: number, env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; seconds: string }> {
  const started = Date.now();
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', log, log] });
  // Set before the program starts workers of its own, which inherit it. Only a speed matter: a program that
  // already ended is left be.
  try {
    if (child.pid) setPriority(child.pid, backgroundNiceness);
  } catch {
    // ESRCH: it exited at once (its exit code says why).
  }
  return exitOf(child).then((code) => ({ code, seconds: ((Date.now() - started) / 1000).toFixed(0) }));
}

function logEnd(file: string): string {
  return readFileSync(file, 'utf8').split('\n').slice(-60).join('\n');
}

/** Types and lint at once (as `npm run checks`), into one log; true when both passed. */
async function runChecks(): Promise<boolean> {
  const log = openSync(checksLog, 'w');
  console.log(`checks (types and lint): started beside the tests at low priority, output in ${path.relative(root, checksLog)}`);
  const [types, lint] = await Promise.all([
    startNiced([binOf('typescript', 'tsc'), '--noEmit'], log),
    startNiced([binOf('eslint', 'eslint'), '.'], log),
  ]);
  if (types.code === 0 && lint.code === 0) {
    console.log(`checks (types and lint): passed in ${Math.max(Number(types.seconds), Number(lint.seconds))} s beside the tests`);
    return true;
  }
  const failed = [types.code !== 0 ? `types (tsc exit ${types.code})` : '', lint.code !== 0 ? `lint (eslint exit ${lint.code})` : ''].filter(Boolean).join(' and ');
  console.error(`checks failed: ${failed}; the end of their output:\n${logEnd(checksLog)}`);
  return false;
}

/** The production build when `.next` is stale; true when current or made. */
async function runBuild(): Promise<boolean> {
  const { fingerprint, reason } = await buildStaleness(root);
  if (!reason) {
    console.log('production build for the end-to-end journeys: current, not rebuilt');
    return true;
  }
  console.log(`production build for the end-to-end journeys (${reason}): started beside the tests at low priority, output in ${path.relative(root, buildLog)}`);
  const { code, seconds } = await startNiced(nextBuildArgs(), openSync(buildLog, 'w'), { ...process.env, NODE_ENV: 'production' });
  if (code !== 0) {
    console.error(`production build failed (exit ${code}) after ${seconds} s; the end of its output:\n${logEnd(buildLog)}`);
    return false;
  }
  // The fingerprint taken before the build: a file edited meanwhile makes `npm start` build again.
  await saveFingerprint(root, fingerprint);
  console.log(`production build for the end-to-end journeys: made in ${seconds} s beside the tests`);
  return true;
}

mkdirSync(path.dirname(checksLog), { recursive: true });
// Timed as each ends, not when the tests are done and ask. A failed check still lets the build run: the end-to-end
// step does not start after a failure, but the build is then current for the next try.
const background = runChecks().then(async (checked) => (await runBuild()) && checked);
// Arguments go to vitest (a file filter, for instance).
const vitest = spawn(process.execPath, [binOf('vitest', 'vitest'), 'run', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
const testsCode = await exitOf(vitest);
const backgroundPassed = await background;
process.exit(testsCode !== 0 ? testsCode : backgroundPassed ? 0 : 1);
