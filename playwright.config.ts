import { existsSync } from 'node:fs';
import { defineConfig } from '@playwright/test';
import { e2eAdmin, e2eBaseUrl, e2eControlPlane, e2eDataDir, e2ePgPort, e2ePort } from './e2e/fixtures/env';

const systemChromium = '/usr/bin/chromium';

/** Playwright's default disabled features (1.65), plus form autofill hints. */
const chromiumFeaturesOff = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'AutofillServerCommunication',
];

/**
 * Journeys that change what the whole instance shares, so that two of them at once would undo each other: the
 * organisation's AI routing (each points `classify` at a fake vendor of its own, which it closes at the end) and the
 * operator's control plane and the unlinked instance (one fixed port). They take turns; every other journey works
 * with members, mailboxes and workflows of its own and runs beside them.
 */
const instanceWideJourneys = ['ui/ai-admin.spec.ts', 'ui/ai-nodes.spec.ts', 'ui/dashboard.spec.ts', 'api/support.spec.ts', 'ui/support.spec.ts'];

/**
 * Two browsers at a time, one spec file each. On the 2-core machines CI runs on one worker left a third of the CPU
 * idle (every journey waits on the instance, the runner and its mail servers): 12.7 min for the 60 journeys, 9 min
 * with two (measured 2026-12-06). More cores: E2E_WORKERS (a count or a share of the cores, `50%`; Playwright checks it).
 */
const workers = process.env.E2E_WORKERS ?? 2;

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers,
  projects: [
    { name: 'instance-wide', testMatch: instanceWideJourneys, workers: 1 },
    { name: 'journeys', testIgnore: instanceWideJourneys },
  ],
  retries: 0,
  reporter: [['list']],
  // The slowest spec files at the end of the run, as vitest prints its own (the suite is kept under CI's time limit).
  reportSlowTests: { max: 10, threshold: 20_000 },
  outputDir: 'test-results',
  use: {
    baseURL: e2eBaseUrl,
    // A trace records every action's snapshots and screencast frames (a tenth of a journey's CPU, measured); CI keeps
    // only the output, so it records none there. Locally a failed journey keeps its trace.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    locale: 'en-US',
    // Spinners, pulsing placeholders and animated edges repaint the page every frame, and headless Chromium paints
    // in software (SwiftShader): on the builder, dashboard, mail, review and tables journeys the browser took 174 s
    // of CPU with motion and 72-85 s without (app/globals.css stops every animation; e2e/ui/motion.spec.ts).
    reducedMotion: 'reduce',
    launchOptions: existsSync(systemChromium)
      ? {
          executablePath: systemChromium,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
            '--disable-quic',
            '--disable-dev-shm-usage',
            // Chromium's own calls home: the hostile-HTML test counts every request leaving the machine.
            // Chromium keeps only the last --disable-features switch, so this one must repeat Playwright's
            // own list (playwright-core's chromiumSwitches) or it re-enables, among others, the preconnect
            // to the default search engine (CONNECT www.google.com:443 when a link opens a window).
            `--disable-features=${chromiumFeaturesOff.join(',')}`,
          ],
        }
      : {},
  },
  webServer: [
    {
      // The operator's control plane the instance is linked to, and its console (e2e/fixtures/operator-process.ts).
      command: 'exec npx tsx e2e/fixtures/operator-process.ts',
      url: `http://127.0.0.1:${e2eControlPlane.consolePort}/health`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
    },
    {
      // A fresh instance: its own data directory (embedded PostgreSQL), the production build, web + runner.
      command: `rm -rf ${e2eDataDir} && exec npm start`,
      url: `${e2eBaseUrl}/readyz`,
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        DATA_DIR: e2eDataDir,
        EMBEDDED_PG_PORT: String(e2ePgPort),
        PORT: String(e2ePort),
        HOST: '127.0.0.1',
        ADMIN_EMAIL: e2eAdmin.email,
        ADMIN_PASSWORD: e2eAdmin.password,
        LOGIN_MAX_ATTEMPTS: '1000',
        // Every journey signs in members of its own, all from 127.0.0.1 (the per-IP limit is tested in vitest).
        INVITATION_ACCEPT_MAX_ATTEMPTS: '1000',
        // The journeys share the administrator across specs and click far faster than a person: the
        // per-member limits are raised here (server/http/member-limits.int.test.ts proves the defaults trip).
        SESSION_RATE_LIMIT: '100000',
        THROTTLE_CONNECTION_CHECKS: '10000',
        THROTTLE_FORCED_ANALYSES: '10000',
        THROTTLE_TEST_RUNS: '10000',
        THROTTLE_EVAL_RUNS: '10000',
        THROTTLE_UPLOADS: '10000',
        THROTTLE_ASSISTANT_TURNS: '10000',
        LOG_LEVEL: 'warn',
        // The test Dovecot and SMTP servers listen on 127.0.0.1 (server/core/net/network-guard.ts).
        MAIL_ALLOW_PRIVATE_HOSTS: '1',
        // The HTTP step of e2e/ui/workflows.spec.ts calls a sink the test starts on 127.0.0.1.
        HTTP_NODE_ALLOW_HOSTS: '127.0.0.1',
        // e2e/ui/ai-admin.spec.ts points an AI connection at a fake vendor it starts on 127.0.0.1.
        LLM_ALLOW_HOSTS: '127.0.0.1',
        // e2e/ui/ai-keys.spec.ts: members may store their own AI keys.
        LLM_MEMBER_KEYS: '1',
        // Linked to the fake operator above (e2e/ui/support.spec.ts); replies are pulled every 2 s, not every minute.
        CONTROL_PLANE_URL: `http://127.0.0.1:${e2eControlPlane.port}`,
        CONTROL_PLANE_INSTANCE_ID: e2eControlPlane.instanceId,
        CONTROL_PLANE_SECRET: e2eControlPlane.secret,
        SUPPORT_SYNC_INTERVAL_SECONDS: '2',
        // A webmail send waits out its undo window (10 s by default) before it leaves; e2e/ui/sending.spec.ts waits
        // for two of them. 5 s still leaves a loaded machine seconds to click Undo after the toast shows.
        SEND_UNDO_SECONDS: '5',
      },
    },
  ],
});
