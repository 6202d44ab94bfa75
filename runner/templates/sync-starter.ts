/**
 * The starter catalogue into the templates table, once per runner start: upserted by slug. A new
 * starter is inserted (enabled); an existing one gets the shipped name, description, category,
 * graph and the facts derived from it, but keeps its `enabled` (an administrator's choice) and its
 * `installCount`. A row already as shipped is not written (its `updatedAt` stays). Runners starting
 * together are safe: inserts skip a slug another runner just inserted, updates write the same values.
 * A starter whose graph no longer validates (a node type changed) is skipped and logged, never stored.
 */
import { db } from '../../server/core/db';
import { log } from '../../server/core/log';
import { validateGraph } from '../../server/engine/graph/validate-graph';
import { starterTemplates, templateFactsOf, type StarterTemplate } from '../../server/domains/templates';
import { storedGraphInput } from '../../server/domains/workflows/schemas';

export interface SyncOutcome {
  created: string[];
  updated: string[];
  unchanged: string[];
  invalid: string[];
}

interface ShippedRow {
  slug: string;
  name: string;
  description: string;
  category: string;
  graph: object;
  nodeTypes: string[];
  requiresProviders: string[];
}

/** The row a starter should be, or null when its graph does not validate. */
export function shippedRow(template: StarterTemplate): ShippedRow | null {
  const parsed = storedGraphInput.safeParse(template.graph);
  if (!parsed.success || validateGraph(parsed.data).length > 0) return null;
  const { id: _id, workflowId: _workflowId, ...graph } = parsed.data;
  return { slug: template.slug, name: template.name, description: template.description, category: template.category, graph, ...templateFactsOf(graph) };
}

/** JSON text with object keys sorted (jsonb does not keep the order they were written in). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

const same = (row: Record<string, unknown>, shipped: ShippedRow) =>
  (['name', 'description', 'category', 'graph', 'nodeTypes', 'requiresProviders'] as const).every((field) => canonical(row[field]) === canonical(shipped[field]));

export async function syncStarterTemplates(templates: readonly StarterTemplate[] = starterTemplates): Promise<SyncOutcome> {
  const outcome: SyncOutcome = { created: [], updated: [], unchanged: [], invalid: [] };
  const rows: ShippedRow[] = [];
  for (const template of templates) {
    const row = shippedRow(template);
    if (row) rows.push(row);
    else outcome.invalid.push(template.slug);
  }
  if (outcome.invalid.length) log.error({ slugs: outcome.invalid }, 'starter templates skipped: their graphs do not validate');
  const existing = await db().template.findMany({ where: { slug: { in: rows.map((row) => row.slug) } } });
  const bySlug = new Map(existing.map((row) => [row.slug, row]));
  const fresh = rows.filter((row) => !bySlug.has(row.slug));
  if (fresh.length) {
    await db().template.createMany({ data: fresh, skipDuplicates: true });
    outcome.created.push(...fresh.map((row) => row.slug));
  }
  for (const row of rows) {
    const stored = bySlug.get(row.slug);
    if (!stored) continue;
    if (same(stored as unknown as Record<string, unknown>, row)) {
      outcome.unchanged.push(row.slug);
      continue;
    }
    const { slug, ...fields } = row;
    await db().template.update({ where: { slug }, data: fields });
    outcome.updated.push(slug);
  }
  return outcome;
}
