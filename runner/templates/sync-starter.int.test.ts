/** The starter catalogue synced into the templates table: inserted once, updated by slug, enabled and installCount kept. */
import { describe, expect, it } from 'vitest';
import { db } from '../../server/core/db';
import { starterTemplates } from '../../server/domains/templates/starter';
import { templateFactsOf } from '../../server/domains/templates/derive';
import { useTestDatabase } from '../../server/testing/test-database';
import { syncStarterTemplates } from './sync-starter';

await useTestDatabase();

const starterRows = () => db().template.findMany({ where: { slug: { not: null } }, orderBy: { slug: 'asc' } });

describe('syncStarterTemplates', () => {
  it('inserts every starter once, enabled, with derived node types and providers; a second run changes nothing', async () => {
    const first = await syncStarterTemplates();
    expect(first.created.sort()).toEqual(starterTemplates.map((template) => template.slug).sort());
    expect(first).toMatchObject({ updated: [], invalid: [] });
    const rows = await starterRows();
    expect(rows).toHaveLength(starterTemplates.length);
    for (const template of starterTemplates) {
      const row = rows.find((candidate) => candidate.slug === template.slug)!;
      expect(row).toMatchObject({ name: template.name, description: template.description, category: template.category, enabled: true, installCount: 0, createdBy: null });
      expect(row.nodeTypes).toEqual(templateFactsOf(template.graph).nodeTypes);
      expect(row.requiresProviders).toEqual(templateFactsOf(template.graph).requiresProviders);
      expect((row.graph as { nodes: unknown[] }).nodes).toHaveLength(template.graph.nodes!.length);
    }
    const invoices = rows.find((row) => row.slug === 'extract-invoices-into-a-table')!;
    expect(invoices.requiresProviders).toEqual(['mail']);
    expect(rows.find((row) => row.slug === 'weekly-folder-review')!.requiresProviders).toEqual([]);

    const second = await syncStarterTemplates();
    expect(second).toMatchObject({ created: [], updated: [], invalid: [] });
    expect(second.unchanged).toHaveLength(starterTemplates.length);
    const again = await starterRows();
    expect(again.map((row) => [row.id, row.updatedAt.toISOString()])).toEqual(rows.map((row) => [row.id, row.updatedAt.toISOString()]));
  });

  it('updates a changed starter by slug but keeps enabled and installCount; leaves other templates alone', async () => {
    await syncStarterTemplates();
    const slug = starterTemplates[0].slug;
    await db().template.update({ where: { slug }, data: { enabled: false, installCount: 7, name: 'Renamed by hand', nodeTypes: ['stale@1'] } });
    const own = await db().template.create({ data: { name: 'An admin’s own', graph: { nodes: [], connections: [] }, category: 'other' } });

    const outcome = await syncStarterTemplates();
    expect(outcome.updated).toEqual([slug]);
    const row = await db().template.findUniqueOrThrow({ where: { slug } });
    expect(row).toMatchObject({ name: starterTemplates[0].name, enabled: false, installCount: 7, nodeTypes: templateFactsOf(starterTemplates[0].graph).nodeTypes });
    expect(await db().template.findUniqueOrThrow({ where: { id: own.id } })).toMatchObject({ name: 'An admin’s own', slug: null });

    // A release that changes a starter's graph: the new graph and facts replace the old ones.
    const changed = { ...starterTemplates[0], graph: { ...starterTemplates[0].graph, nodes: starterTemplates[0].graph.nodes!.slice(0, 2), connections: starterTemplates[0].graph.connections!.slice(0, 1) } };
    expect((await syncStarterTemplates([changed])).updated).toEqual([slug]);
    const updated = await db().template.findUniqueOrThrow({ where: { slug } });
    expect((updated.graph as { nodes: unknown[] }).nodes).toHaveLength(2);
    expect(updated).toMatchObject({ enabled: false, installCount: 7, nodeTypes: ['mail.label@1', 'trigger.mail@1'] });
  });

  it('two runners starting together insert each starter once', async () => {
    await db().template.deleteMany({ where: { slug: { not: null } } });
    await Promise.all([syncStarterTemplates(), syncStarterTemplates()]);
    expect(await db().template.count({ where: { slug: { not: null } } })).toBe(starterTemplates.length);
  });

  it('skips a starter whose graph does not validate, and stores nothing for it', async () => {
    const broken = { ...starterTemplates[0], slug: 'broken-starter', graph: { nodes: [{ id: 'x', type: 'no.such', version: 1, name: 'X' }], connections: [] } };
    const outcome = await syncStarterTemplates([broken]);
    expect(outcome).toMatchObject({ invalid: ['broken-starter'], created: [] });
    expect(await db().template.findUnique({ where: { slug: 'broken-starter' } })).toBeNull();
  });
});
