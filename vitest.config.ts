import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  resolve: {
    // Same as tsconfig `paths`: `@/server/...` is the repository root.
    alias: [{ find: /^@\//, replacement: `${root}` }],
  },
  test: {
    environment: 'node',
    include: ['**/*.test.ts', '**/*.test.tsx'],
    exclude: ['e2e/**', '**/node_modules/**', '.data/**', '.next/**'],
    // Child processes rather than threads: tests start servers, change process.env and load the
    // schema engine's WebAssembly, none of which should leak between files.
    pool: 'forks',
    // Vitest's default is one file fewer than the cores: one at a time on the 2-core machines CI runs
    // on, while most files spend their time waiting on PostgreSQL, Dovecot or child processes. Two at
    // a time there (each file has its own database); more cores, more files.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: ['server/testing/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 60_000,
  },
});
