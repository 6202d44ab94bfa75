/**
 * What the global setup hands to test workers, through environment variables (workers are started
 * after the setup and inherit them).
 */
export const templateDatabase = 'mailflow_template';

export const testEnvNames = {
  /** URL of a maintenance database on the test server, for CREATE/DROP DATABASE. */
  adminUrl: 'MAILFLOW_TEST_ADMIN_URL',
  /** Prefix shared by the databases of one run. */
  runId: 'MAILFLOW_TEST_RUN_ID',
} as const;

/**
 * Per-member limits raised for the test processes: a test file drives one member through many more
 * requests, probes and runs per minute than a person would. server/http/member-limits.int.test.ts
 * removes these to prove the defaults trip.
 */
export const raisedLimits = {
  SESSION_RATE_LIMIT: '1000000',
  THROTTLE_CONNECTION_CHECKS: '1000000',
  THROTTLE_FORCED_ANALYSES: '1000000',
  THROTTLE_TEST_RUNS: '1000000',
  THROTTLE_EVAL_RUNS: '1000000',
  THROTTLE_UPLOADS: '1000000',
  THROTTLE_ASSISTANT_TURNS: '1000000',
} as const;

/**
 * Instance settings every test process runs with (set by the global setup, inherited by workers):
 * the test mail servers listen on 127.0.0.1, which the network guard refuses by default; the
 * per-member limits are raised (above).
 */
export const testInstanceEnv = {
  MAIL_ALLOW_PRIVATE_HOSTS: '1',
  ...raisedLimits,
} as const;

export function testEnv(): { adminUrl: string; runId: string } {
  const adminUrl = process.env[testEnvNames.adminUrl];
  const runId = process.env[testEnvNames.runId];
  if (!adminUrl || !runId) {
    throw new Error('no test database server: run integration tests through vitest (server/testing/global-setup.ts)');
  }
  return { adminUrl, runId };
}

/** A URL on the same server as `adminUrl`, naming another database. */
export function databaseUrlFor(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}
