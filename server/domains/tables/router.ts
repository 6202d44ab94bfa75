/**
 * The tables domain's routes: the tables themselves here, their rows, columns and CSV files in their
 * own folders, composed by nesting only (`tables.rows.list`, `tables.columns.add`, `tables.csv.import`).
 */
import { z } from 'zod';
import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import { columnsRouter } from './columns/router';
import { csvRouter } from './csv/router';
import { rowsRouter } from './rows/router';
import { createTableInput, limitsOutput, patchTableInput, tableOutput, tableRefInput, tableSchema } from './schemas';
import { createTable, deleteTable, getTable, listTables, patchTable, tableLimits } from './service';

const tag = 'Tables';
const read = { kind: 'scope', scope: 'tables:read' } as const;
const structure = { kind: 'scope', scope: 'tables:write', admin: true } as const;

export const tablesRouter = router({
  list: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/tables',
        access: read,
        tag,
        summary: { en: 'List tables', fr: 'Lister les tables' },
        description: {
          en: 'Every shared table of the team with its columns and row count, by name.',
          fr: 'Toutes les tables partagées de l’équipe avec leurs colonnes et leur nombre de lignes, par nom.',
        },
      }),
    )
    .output(z.object({ tables: z.array(tableSchema) }))
    .query(() => listTables()),

  create: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/tables',
        access: structure,
        idempotent: true,
        status: 201,
        errors: ['tables.limit_reached', 'tables.duplicate_slug', 'tables.duplicate_column'],
        tag,
        summary: { en: 'Create a table', fr: 'Créer une table' },
        description: {
          en: 'Administrators. `name` (1-120); `slug` derived from the name and made unique when absent; `columns` (only `label` required; `key` derived from it; type `text` by default; at most one key column; `select` needs options); `keyUnique` defaults to true. Reaching an instance ceiling is 409 `tables.limit_reached` with `details.limit`.',
          fr: 'Administrateurs. `name` (1-120) ; `slug` tiré du nom et rendu unique s’il est absent ; `columns` (seul `label` est requis ; `key` en est tiré ; type `text` par défaut ; une seule colonne clé ; `select` exige des options) ; `keyUnique` vaut true par défaut. Atteindre un plafond de l’instance donne 409 `tables.limit_reached` avec `details.limit`.',
        },
      }),
    )
    .input(createTableInput)
    .output(tableOutput)
    .mutation(({ ctx, input }) => createTable(actorOf(ctx), input, ctx.ip)),

  limits: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/tables/limits',
        access: read,
        tag,
        summary: { en: 'Table ceilings of the instance', fr: 'Plafonds des tables de l’instance' },
        description: {
          en: 'Maximum number of tables, columns per table, rows per table and characters per cell.',
          fr: 'Nombre maximal de tables, de colonnes par table, de lignes par table et de caractères par cellule.',
        },
      }),
    )
    .output(limitsOutput)
    .query(() => ({ limits: tableLimits() })),

  get: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/tables/{id}',
        access: read,
        errors: ['tables.not_found'],
        tag,
        summary: { en: 'Read a table’s structure', fr: 'Lire la structure d’une table' },
        description: {
          en: 'The table by id or slug: structure only (rows have their own route).',
          fr: 'La table par id ou par slug : structure seulement (les lignes ont leur propre route).',
        },
      }),
    )
    .input(tableRefInput)
    .output(tableOutput)
    .query(({ input }) => getTable(input.id)),

  patch: procedure
    .meta(
      route({
        method: 'PATCH',
        path: '/api/v1/tables/{id}',
        access: structure,
        errors: ['tables.not_found', 'tables.duplicate_slug'],
        tag,
        summary: { en: 'Change a table', fr: 'Modifier une table' },
        description: {
          en: 'Administrators. Partial: `name`, `slug`, `description`, `keyUnique`. The table by id or slug.',
          fr: 'Administrateurs. Partiel : `name`, `slug`, `description`, `keyUnique`. La table par id ou par slug.',
        },
      }),
    )
    .input(patchTableInput)
    .output(tableOutput)
    .mutation(({ ctx, input }) => patchTable(actorOf(ctx), input, ctx.ip)),

  delete: procedure
    .meta(
      route({
        method: 'DELETE',
        path: '/api/v1/tables/{id}',
        access: structure,
        errors: ['tables.not_found'],
        tag,
        summary: { en: 'Delete a table', fr: 'Supprimer une table' },
        description: {
          en: 'Administrators. Deletes the table and its rows for good; answers the table as it was.',
          fr: 'Administrateurs. Supprime définitivement la table et ses lignes ; renvoie la table telle qu’elle était.',
        },
      }),
    )
    .input(tableRefInput)
    .output(tableOutput)
    .mutation(({ ctx, input }) => deleteTable(actorOf(ctx), input.id, ctx.ip)),

  rows: rowsRouter,
  columns: columnsRouter,
  csv: csvRouter,
});
