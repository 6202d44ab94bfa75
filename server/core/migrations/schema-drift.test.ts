import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { diffSchemas, pendingSchemaChange, schemaPaths } from './schema-diff';

describe('prisma/schema.prisma', () => {
  it('has no change that is missing from prisma/migrations (run `npm run db:diff -- <name>`)', async () => {
    expect(await pendingSchemaChange()).toBe('');
  });
});

describe('diffSchemas', () => {
  it('sees a column added to the schema', async () => {
    const schema = await readFile(schemaPaths().current, 'utf8');
    const changed = schema.replace(/(model Member \{\n)/, '$1  nickname String?\n');
    expect(changed).not.toBe(schema);
    expect(await diffSchemas(schema, changed)).toMatch(/ALTER TABLE "members" ADD COLUMN\s+"nickname" TEXT/);
  });

  it('creates every table from an empty database', async () => {
    const schema = await readFile(schemaPaths().current, 'utf8');
    const sql = await diffSchemas(null, schema);
    for (const table of ['members', 'sessions', 'api_keys', 'invitations', 'audit_entries', 'idempotency_records', 'rate_limit_buckets']) {
      expect(sql).toContain(`CREATE TABLE "${table}"`);
    }
  });
});
