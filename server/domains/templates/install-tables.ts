/**
 * Installing a template that needs tables (issue 19 §2, table-requirements.ts): each choice creates
 * the template's table (administrators only, as any table: 403 `auth.forbidden` for a member) or
 * names an existing one (404 `tables.not_found`), checked column by column (409
 * `templates.table_mismatch` with `details` {table, column, reason, expected, actual} and a message
 * naming the column). The template's nodes then name the chosen table by id. All in the install's
 * transaction: a refused install leaves no table behind. Without choices the graph is installed as
 * shipped (its nodes name the table by the template's slug).
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import type { Tx } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import type { WorkflowGraph } from '../../engine/contract/graph';
import { findTableOrThrow, storedColumnsOf, createTable } from '../tables';
import type { InstallInput } from './schemas';
import { columnsToCreate, mismatchMessage, tableMismatch, type TemplateTable } from './table-requirements';

type Choice = NonNullable<InstallInput['tables']>[number];

async function chosenTableId(actor: AuthenticatedActor, wanted: TemplateTable, choice: Choice, ip: string | null, tx: Tx): Promise<string> {
  if (choice.use === 'create') {
    if (actor.member.role !== 'admin') throw appError('auth.forbidden', { message: 'Only an administrator can create a table: choose an existing table, or ask an administrator.' });
    const { table } = await createTable(actor, { name: wanted.name, description: wanted.description, columns: columnsToCreate(wanted), keyUnique: true }, ip, tx);
    return table.id;
  }
  const table = await findTableOrThrow(choice.tableId, tx);
  const mismatch = tableMismatch(wanted, storedColumnsOf(table.columns));
  if (mismatch) {
    throw appError('templates.table_mismatch', { message: mismatchMessage(table.name, wanted, mismatch), details: { table: table.slug, ...mismatch } });
  }
  return table.id;
}

export async function withChosenTables(actor: AuthenticatedActor, graph: WorkflowGraph, tables: readonly TemplateTable[], choices: readonly Choice[], ip: string | null, tx: Tx): Promise<WorkflowGraph> {
  const bySlug = new Map(tables.map((table) => [table.slug, table]));
  const seen = new Set<string>();
  const tableIdOf = new Map<string, string>();
  for (const choice of choices) {
    const wanted = bySlug.get(choice.slug);
    if (!wanted || seen.has(choice.slug)) {
      throw appError('request.bad_request', { message: `The template has no table “${choice.slug}” to choose (or it is chosen twice).`, details: { issues: [{ path: 'tables', message: `Unknown or repeated table “${choice.slug}”.` }] } });
    }
    seen.add(choice.slug);
    const tableId = await chosenTableId(actor, wanted, choice, ip, tx);
    for (const nodeId of wanted.nodeIds) tableIdOf.set(nodeId, tableId);
  }
  if (tableIdOf.size === 0) return graph;
  return { ...graph, nodes: graph.nodes.map((node) => (tableIdOf.has(node.id) ? { ...node, params: { ...node.params, tableId: tableIdOf.get(node.id)! } } : node)) };
}
