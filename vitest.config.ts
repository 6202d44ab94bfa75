import { globSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import LongFilesFirst from './server/testing/vitest/long-files-first.ts';
import SlowestFilesReporter from './server/testing/vitest/slowest-files-reporter.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
const testFiles = ['**/*.test.ts', '**/*.test.tsx'];
const excluded = ['e2e/**', '**/node_modules/**', '.data/**', '.next/**', '.tools/**'];

/**
 * Loading the modules once per file costs more than most files' tests (measured on a loaded 2-core
 * machine: import 489 s against tests 95 s for 187 pure files; for 32 database files, import 206 s
 * against tests 137 s, 187 s wall, and 68 s wall once they shared their modules). So files share their
 * worker's loaded modules unless they must not, in three projects:
 * - `shared-modules`: pure tests of functions and components;
 * - `integration`: files that use a database, servers, child processes or environment variables. They
 *   share modules too; server/testing/file-scope.ts puts back what a file changes of process-wide state
 *   (environment, configuration, the modules' test hooks, spies, timers) when it ends, and each has its
 *   own database;
 * - `isolated`: files that replace modules or globals (vi.mock, vi.doMock, vi.resetModules, vi.stubEnv,
 *   vi.stubGlobal), which would leak into every later file of the worker: a fresh module graph each.
 * The test is on the source text, so a file that starts mocking moves itself.
 */
const replacesModules = /\bvi\.(mock|doMock|stubEnv|stubGlobal|resetModules)\b/;
const touchesProcessState = /process\.env|useTestDatabase|child_process|\.int\.test\./;

function testFilesByNeed(): { shared: string[]; integration: string[] } {
  const files = globSync(testFiles, { cwd: root, exclude: (name) => name === 'node_modules' || name === '.next' || name === 'e2e' || name === '.data' || name === '.tools' }).sort();
  const shared: string[] = [];
  const integration: string[] = [];
  for (const file of files) {
    if (replacesModules.test(file)) continue;
    const source = readFileSync(`${root}/${file}`, 'utf8');
    if (replacesModules.test(source)) continue;
    (touchesProcessState.test(file) || touchesProcessState.test(source) ? integration : shared).push(file);
  }
  return { shared, integration };
}

const { shared: sharedModules, integration } = testFilesByNeed();
// Once per run: the set-up is named by both projects that need the database, and the second call shares the first's server.
const globalSetup = ['server/testing/global-setup.ts'];

export default defineConfig({
  resolve: {
    // Same as tsconfig `paths`: `@/server/...` is the repository root.
    alias: [{ find: /^@\//, replacement: `${root}` }],
  },
  test: {
    environment: 'node',
    exclude: excluded,
    // Child processes rather than threads: tests start servers, change process.env and load the
    // schema engine's WebAssembly, none of which should leak into another worker (within a worker, see
    // the projects below).
    pool: 'forks',
    // Vitest's default is one file fewer than the cores: one at a time on the 2-core machines CI runs
    // on, while most files spend their time waiting on PostgreSQL, Dovecot or child processes. Two at
    // a time there (each file has its own database); more cores, more files.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Files that run for minutes start first, so no worker is left alone with one at the end.
    sequence: { sequencer: LongFilesFirst },
    reporters: ['default', new SlowestFilesReporter()],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'shared-modules', include: sharedModules, isolate: false } },
      { extends: true, test: { name: 'integration', include: integration, isolate: false, setupFiles: ['server/testing/file-scope.ts'], globalSetup } },
      {
        extends: true,
        test: { name: 'isolated', include: testFiles, exclude: [...excluded, ...sharedModules, ...integration], globalSetup },
      },
    ],
  },
});
