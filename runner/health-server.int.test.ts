/**
 * The runner's health endpoint (runner/health-server.ts) as an orchestrator's probes see it: liveness
 * without the database, readiness from the database, the migrations and the job worker, and nothing
 * else served. A real runner process answers it too (runner/processes-share-one-database.int.test.ts
 * waits on its /readyz).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../server/core/config';
import { disconnectDb } from '../server/core/db';
import { createTestDatabase, useTestDatabase } from '../server/testing/test-database';
import { startRunnerHealthServer, type RunnerHealthServer } from './health-server';

const migratedUrl = await useTestDatabase();

let workerRunning = true;
let health: RunnerHealthServer;

beforeAll(async () => {
  health = await startRunnerHealthServer({ port: 0, host: '127.0.0.1', workerRunning: () => workerRunning });
});

afterAll(async () => {
  await health.close();
});

const get = (path: string, init: RequestInit = {}) => fetch(`${health.url}${path}`, init);

describe('GET /healthz', () => {
  it('answers 200 ok with the version and uptime', async () => {
    const response = await get('/healthz');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ status: 'ok', brand: 'Mailflow', version: expect.any(String), uptimeSeconds: expect.any(Number) });
  });

  it('answers HEAD with the status and no body', async () => {
    const response = await get('/healthz', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });
});

describe('GET /readyz', () => {
  it('answers 200 ready when the database answers, every migration is applied and the worker runs', async () => {
    const response = await get('/readyz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ready',
      checks: [
        { name: 'database', ok: true },
        { name: 'migrations', ok: true },
        { name: 'worker', ok: true },
      ],
    });
  });

  it('answers 503 not_ready once the job worker stopped', async () => {
    workerRunning = false;
    try {
      const response = await get('/readyz');
      expect(response.status).toBe(503);
      const body = await response.json();
      expect(body.status).toBe('not_ready');
      expect(body.checks).toContainEqual({ name: 'worker', ok: false, detail: 'job worker not running' });
    } finally {
      workerRunning = true;
    }
  });

  it('answers 503 when the database is unreachable, while /healthz still answers 200', async () => {
    const emptyUrl = await createTestDatabase({ migrated: false });
    await disconnectDb();
    process.env.DATABASE_URL = emptyUrl.replace(/:(\d+)\//, ':1/');
    resetConfigForTests();
    try {
      const response = await get('/readyz');
      expect(response.status).toBe(503);
      const body = await response.json();
      expect(body.status).toBe('not_ready');
      expect(body.checks[0]).toEqual({ name: 'database', ok: false, detail: 'database unreachable' });
      // Liveness never asks the database: an outage does not get the runner restarted.
      expect((await get('/healthz')).status).toBe(200);
    } finally {
      await disconnectDb();
      process.env.DATABASE_URL = migratedUrl;
      resetConfigForTests();
    }
  });
});

describe('anything else', () => {
  it('answers another path 404 request.not_found in the envelope', async () => {
    const response = await get('/metrics');
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe('request.not_found');
  });

  it('answers another method 405 request.method_not_allowed with Allow', async () => {
    const response = await get('/readyz', { method: 'POST', body: '{}' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect((await response.json()).error.code).toBe('request.method_not_allowed');
  });
});
