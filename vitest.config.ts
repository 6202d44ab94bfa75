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
    globalSetup: ['server/testing/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 60_000,
  },
});
