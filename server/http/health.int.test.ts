import { describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, useTestDatabase } from '../testing/test-database';
import { disconnectDb } from '../core/db';
import { resetConfigForTests } from '../core/config';
import { handleHealthz, handleReadyz } from './health';
import { call } from '../testing/rest-client';

const migratedUrl = await useTestDatabase();

describe('GET /healthz', () => {
  it('answers ok with brand, version and uptime', async () => {
    const response = handleHealthz();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', brand: 'Mailflow', version: expect.any(String), uptimeSeconds: expect.any(Number) });
  });
});

describe('GET /readyz', () => {
  it('answers 200 ready when the database answers and every migration is applied', async () => {
    const response = await handleReadyz();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ready', checks: [{ name: 'database', ok: true }, { name: 'migrations', ok: true }] });
  });

  it('answers 503 not_ready when a migration is missing', async () => {
    const client = new pg.Client({ connectionString: migratedUrl });
    await client.connect();
    const removed = await client.query('DELETE FROM _prisma_migrations RETURNING *');
    try {
      const response = await handleReadyz();
      expect(response.status).toBe(503);
      const body = await response.json();
      expect(body.status).toBe('not_ready');
      expect(body.checks.find((check: { name: string }) => check.name === 'migrations')).toMatchObject({ ok: false, detail: expect.any(String) });
    } finally {
      for (const row of removed.rows) {
        const columns = Object.keys(row);
        await client.query(
          `INSERT INTO _prisma_migrations (${columns.join(',')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(',')})`,
          columns.map((column) => row[column]),
        );
      }
      await client.end();
    }
  });

  it('answers 503 when the database is unreachable', async () => {
    const emptyUrl = await createTestDatabase({ migrated: false });
    await disconnectDb();
    process.env.DATABASE_URL = emptyUrl.replace(/:(\d+)\//, ':1/');
    resetConfigForTests();
    try {
      const response = await handleReadyz();
      expect(response.status).toBe(503);
      expect((await response.json()).checks[0]).toMatchObject({ name: 'database', ok: false });
    } finally {
      await disconnectDb();
      process.env.DATABASE_URL = migratedUrl;
      resetConfigForTests();
    }
  });
});

describe('GET /api/v1/branding', () => {
  it('answers the brand from the environment with source "environment"', async () => {
    process.env.BRAND_NAME = 'Acme Mail';
    process.env.BRAND_COLOR_PRIMARY = '#112233';
    process.env.BRAND_LOGIN_WELCOME_EN = 'Welcome';
    resetConfigForTests();
    const response = await call('GET', '/api/v1/branding');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      name: 'Acme Mail',
      source: 'environment',
      colors: { primary: '#112233', onPrimary: null },
      login: { welcome: { en: 'Welcome', fr: 'Welcome' } },
      instance: { suspended: false },
    });
  });
});
