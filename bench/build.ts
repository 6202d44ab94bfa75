/**
 * The production build the web server serves, decided the way `npm start` decides it
 * (scripts/lib/build-fingerprint.ts): `next build` when `.next/BUILD_ID` is missing or the sources
 * changed since the recorded build. BENCH_REBUILD=0 uses any existing build as is; =1 always builds.
 *
 * `.next/` is shared with whoever else runs `npm start` or `next build` in this tree: while their
 * build holds `.next/lock` we wait for it rather than build over it.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildNeeded, saveFingerprint, sourceFingerprint } from '../scripts/lib/build-fingerprint';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForOtherBuild(root: string, log: (message: string) => void, timeoutMs = 300_000): Promise<void> {
  const lock = path.join(root, '.next', 'lock');
  if (!existsSync(lock)) return;
  log('another next build is running in this tree (.next/lock): waiting for it');
  const deadline = Date.now() + timeoutMs;
  while (existsSync(lock)) {
    if (Date.now() > deadline) throw new Error(`.next/lock still present after ${timeoutMs / 1000} s; remove it if no build is running`);
    await sleep(1_000);
  }
}

export async function ensureProductionBuild(root: string, log: (message: string) => void): Promise<string> {
  await waitForOtherBuild(root, log);
  const mode = process.env.BENCH_REBUILD;
  const hasBuild = existsSync(path.join(root, '.next', 'BUILD_ID'));
  const fingerprint = await sourceFingerprint(root);
  const reason = mode === '1' ? 'BENCH_REBUILD=1' : mode === '0' && hasBuild ? null : await buildNeeded(root, fingerprint);
  if (!reason) return mode === '0' ? 'existing build (BENCH_REBUILD=0)' : 'existing build, current with the sources';

  log(`running next build (${reason})…`);
  const started = Date.now();
  const nextCli = createRequire(import.meta.url).resolve('next/dist/bin/next');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [nextCli, 'build'], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`next build failed (exit ${code}):\n${output.trim().split('\n').slice(-40).join('\n')}`)),
    );
  });
  // As npm start does: the fingerprint taken before the build, so an edit during it is not missed.
  await saveFingerprint(root, fingerprint);
  return `built now (${reason}) in ${((Date.now() - started) / 1000).toFixed(0)} s`;
}
