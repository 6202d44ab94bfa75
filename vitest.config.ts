import { globSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));
const testFiles = ['**/*.test.ts', '**/*.test.tsx'];
const excluded = ['e2e/**', '**/node_modules/**', '.data/**', '.next/**', '.tools/**'];

/**
 * A test file that touches process-wide state (module mocks, environment variables, globals) or a
 * database, server or child process runs in a fresh module graph of its own. Every other file is a
 * pure test of functions and components: those share their worker's loaded modules, because loading
 * the modules once per file cost far more than the tests themselves (import 489 s against tests 95 s
 * for 187 such files on a loaded 2-core machine; 52 s against 71 s shared). The test is on the source
 * text, so a file that starts mocking moves itself to the isolated project.
 */
const needsIsolation = /\bvi\.(mock|doMock|stubEnv|stubGlobal|resetModules)\b|process\.env|useTestDatabase|child_process|\.int\.test\./;

function sharedModuleTestFiles(): string[] {
  return globSync(testFiles, { cwd: root, exclude: (name) => name === 'node_modules' || name === '.next' || name === 'e2e' || name === '.data' || name === '.tools' })
    .filter((file) => !needsIsolation.test(file) && !needsIsolation.test(readFileSync(`${root}/${file}`, 'utf8')))
    .sort();
}

const sharedModules = sharedModuleTestFiles();

export default defineConfig({
  resolve: {
    // Same as tsconfig `paths`: `@/server/...` is the repository root.
    alias: [{ find: /^@\//, replacement: `${root}` }],
  },
  test: {
    environment: 'node',
    exclude: excluded,
    // Child processes rather than threads: tests start servers, change process.env and load the
    // schema engine's WebAssembly, none of which should leak between files.
    pool: 'forks',
    // Vitest's default is one file fewer than the cores: one at a time on the 2-core machines CI runs
    // on, while most files spend their time waiting on PostgreSQL, Dovecot or child processes. Two at
    // a time there (each file has its own database); more cores, more files.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'shared-modules', include: sharedModules, isolate: false } },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: testFiles,
          exclude: [...excluded, ...sharedModules],
          // Once per run, here only: a set-up in the root would run again for each project that extends it.
          // Vitest runs every project's set-up before the first test file of any project.
          globalSetup: ['server/testing/global-setup.ts'],
        },
      },
    ],
  },
});
