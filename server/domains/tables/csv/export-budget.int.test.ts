/**
 * CSV exports hold a pool connection while their client reads: they have a budget of their own, an
 * idle cut-off, and the pool an acquire timeout. This file runs with a pool of 6 connections, 3
 * exports at once (2 per member), a 1-second idle cut-off and a 500 ms acquire timeout.
 */
import type pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { pool } from '../../../core/db';
import { createMember, testPassword, type TestMember } from '../../../testing/factories';
import { call } from '../../../testing/rest-client';
import { requestTableExport } from '../../../testing/table-export';
import { useTestDatabase } from '../../../testing/test-database';
import { runningExports } from './export-budget';

process.env.DATABASE_POOL_SIZE = '6';
process.env.DATABASE_ACQUIRE_TIMEOUT_MS = '500';
process.env.TABLES_MAX_EXPORTS = '3';
process.env.TABLES_MAX_EXPORTS_PER_MEMBER = '2';
process.env.TABLES_EXPORT_IDLE_SECONDS = '1';
await useTestDatabase();

let admin: TestMember;
let ada: TestMember;
let bob: TestMember;
let cy: TestMember;
let tableId: string;

beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
  [ada, bob, cy] = await Promise.all([createMember(), createMember(), createMember()]);
  const created = await call('POST', '/api/v1/tables', { cookie: admin.cookie, body: { name: 'Exported', columns: [{ key: 'name', label: 'Name' }] } });
  tableId = created.body.table.id;
  const operations = ['Ada', 'Bob', 'Cy'].map((name) => ({ op: 'insert', cells: { name } }));
  expect((await call('POST', `/api/v1/tables/${tableId}/rows/batch`, { cookie: admin.cookie, body: { operations } })).status).toBe(200);
});

/** Connections of the pool handed out right now. */
const connectionsInUse = () => pool().totalCount - pool().idleCount;

async function openExport(member: TestMember): Promise<Response> {
  return requestTableExport(tableId, { cookie: member.cookie });
}

/** Waits (without asserting how long it takes) until `condition` holds; fails after 15 s. */
async function eventually(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition never met');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function cancelAll(responses: Response[]): Promise<void> {
  await Promise.all(responses.filter((response) => response.status === 200).map((response) => response.body!.cancel()));
}

describe('hardening 9: streaming exports have their own budget and never starve the pool', () => {
  it('streams at most 2 exports per member and 3 in all; sign-in and other routes keep their connections', async () => {
    // As many slow readers as the pool has connections: without a budget they would hold all of them.
    const attempts = await Promise.all([ada, ada, bob, bob, cy, cy].map(openExport));
    try {
      const statuses = attempts.map((response) => response.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(3);
      for (const refused of attempts.filter((response) => response.status !== 200)) {
        const body = await refused.json();
        expect([429, 503]).toContain(refused.status);
        expect(refused.headers.get('retry-after')).toBe('5');
        expect(body.error.code).toBe(refused.status === 429 ? 'tables.too_many_exports' : 'internal.busy');
      }
      expect(runningExports().overall).toBe(3);
      const signIn = await call('POST', '/api/v1/auth/login', { body: { email: cy.email, password: testPassword }, ip: '10.9.0.1' });
      expect(signIn.status).toBe(200);
      expect((await call('GET', '/api/v1/tables', { cookie: cy.cookie })).status).toBe(200);
    } finally {
      await cancelAll(attempts);
    }
  });

  it('refuses a member’s third export with 429 tables.too_many_exports, and another member’s fourth with 503 internal.busy', async () => {
    const first = [await openExport(ada), await openExport(ada)];
    try {
      const third = await openExport(ada);
      expect(third.status).toBe(429);
      expect((await third.json()).error).toMatchObject({ code: 'tables.too_many_exports', details: { limit: 2, retryAfterSeconds: 5 } });
      first.push(await openExport(bob));
      expect(first.map((response) => response.status)).toEqual([200, 200, 200]);
      const fourth = await openExport(cy);
      expect(fourth.status).toBe(503);
      expect((await fourth.json()).error).toMatchObject({ code: 'internal.busy', details: { reason: 'exports', limit: 3 } });
    } finally {
      await cancelAll(first);
    }
    expect(runningExports().overall).toBe(0);
  });

  it('gives the slot and the connection back when the reader abandons the body', async () => {
    const before = connectionsInUse();
    const [one, two] = [await openExport(ada), await openExport(ada)];
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(connectionsInUse()).toBe(before + 2);
    await one.body!.cancel();
    expect(runningExports().byMember.get(ada.id)).toBe(1);
    expect(connectionsInUse()).toBe(before + 1);
    const three = await openExport(ada);
    expect(three.status).toBe(200);
    // A reader that reads to the end gives everything back too.
    expect(await three.text()).toBe('Name\nAda\nBob\nCy\n');
    await two.body!.cancel();
    expect(runningExports().overall).toBe(0);
    expect(connectionsInUse()).toBe(before);
  });

  it('ends an export whose reader takes nothing for the idle time, and frees its slot and connection', async () => {
    const before = connectionsInUse();
    const stalled = [await openExport(bob), await openExport(bob)];
    expect(stalled.map((response) => response.status)).toEqual([200, 200]);
    await eventually(() => runningExports().overall === 0 && connectionsInUse() === before);
    const next = await openExport(bob);
    expect(next.status).toBe(200);
    expect(await next.text()).toBe('Name\nAda\nBob\nCy\n');
    // The stalled download fails rather than ending as if it were complete.
    await expect(stalled[0].text()).rejects.toThrow();
    await cancelAll([stalled[1]]);
  });

  it('answers 503 internal.busy when no pool connection comes within the acquire timeout, instead of hanging', async () => {
    const held: pg.PoolClient[] = [];
    try {
      while (pool().totalCount < 6 || pool().idleCount > 0) held.push(await pool().connect());
      const prismaRoute = await call('GET', '/api/v1/tables', { cookie: ada.cookie });
      expect(prismaRoute.status).toBe(503);
      expect(prismaRoute.body.error).toMatchObject({ code: 'internal.busy', details: { reason: 'database' } });
      expect(prismaRoute.headers.get('retry-after')).toBe('2');
      const exportRoute = await openExport(bob);
      expect(exportRoute.status).toBe(503);
      expect(runningExports().overall).toBe(0);
    } finally {
      for (const client of held) client.release();
    }
    expect((await call('GET', '/api/v1/tables', { cookie: ada.cookie })).status).toBe(200);
  });
});
