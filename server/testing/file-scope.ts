/**
 * Per-file scope for the integration tests that share their worker's loaded modules (vitest.config.ts,
 * project `integration`): loading the server's module graph once per worker instead of once per file
 * saves most of their time, so what one file changes of process-wide state is put back when it ends.
 * Each file still gets its own database (useTestDatabase); this undoes the rest:
 * - environment variables it set, and the configuration read from them;
 * - the test hooks that swap a module's settings (capabilities, thread pools, the password gate, the
 *   AI connection test's network);
 * - spies and fake timers left on.
 * Files that replace modules (vi.mock, vi.doMock, vi.resetModules) or stub globals never come here:
 * they run isolated.
 */
import { afterAll, vi } from 'vitest';
import { resetPasswordGateForTests } from '../core/auth/password';
import { resetConfigForTests } from '../core/config';
import { disconnectDb } from '../core/db';
import { setConnectionTestNetForTests } from '../domains/llm/connection-test';
import { setCapabilityOptionsForTests } from '../engine-adapters/compose';
import { overrideExpressionSandboxForTests } from '../engine/expressions/sandbox/pool';
import { overridePdfPoolForTests } from '../mail/pdf/pdf-text-pool';
import { overrideSanitizePoolForTests } from '../mail/sanitize/sanitize-pool';

const environmentAtStart = { ...process.env };

function restoreEnvironment(): void {
  for (const name of Object.keys(process.env)) {
    if (!(name in environmentAtStart)) delete process.env[name];
  }
  Object.assign(process.env, environmentAtStart);
}

// Registered before the file's own hooks, so it runs after them (after-hooks run last-registered first).
afterAll(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await disconnectDb();
  restoreEnvironment();
  resetConfigForTests();
  setCapabilityOptionsForTests({});
  overrideExpressionSandboxForTests({});
  overridePdfPoolForTests({});
  overrideSanitizePoolForTests({});
  setConnectionTestNetForTests({});
  resetPasswordGateForTests();
});
