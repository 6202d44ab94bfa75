/**
 * GET /api/v1/tables/{id}/export.csv — a download, so a plain route rather than a JSON procedure. Its
 * query is the tables domain's own schema (the rows query's view parameters plus `raw`); access, rate
 * limit and errors come from the pipeline. The export opens its database cursor before answering, so
 * a bad view or a full export budget is a proper error status, never a truncated 200.
 */
import { z } from 'zod';
import { appError } from '../core/errors/app-error';
import { exportQueryInput, openTableExport, listRowsInput } from '../domains/tables';
import { plainRoute } from './plain/plain-route';
import { streamedDownload } from './plain/responses';

export const tableExportRoute = plainRoute({
  method: 'GET',
  path: '/api/v1/tables/{id}/export.csv',
  access: { kind: 'scope', scope: 'tables:read' },
  params: listRowsInput.pick({ id: true }),
  query: exportQueryInput,
  success: {
    status: 200,
    mediaType: 'text/csv',
    schema: z.string(),
    description: { en: 'The CSV file.', fr: 'Le fichier CSV.' },
  },
  errors: ['tables.not_found', 'tables.too_many_exports', 'internal.busy'],
  tag: 'Tables',
  summary: { en: 'Export a table as CSV', fr: 'Exporter une table en CSV' },
  description: {
    en: 'The table (by id or slug) as a CSV download: a header line of column labels, then every row, in creation order by default. `q`, `filter`, `match`, `sort` and `dir` work as in the rows query, to export a view; a bad filter is 400 `request.bad_request` naming the condition. To protect spreadsheet users, a label or text value starting with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `\'` (OWASP CSV injection); number cells are exported as they are. `raw=true` exports the stored texts unchanged, for programs. Exports streaming at once are limited per member (429 `tables.too_many_exports`) and per instance (503 `internal.busy`); an export whose reader takes nothing for 30 seconds is ended.',
    fr: 'La table (par id ou par slug) en téléchargement CSV : une ligne d’en-têtes avec les libellés des colonnes, puis chaque ligne, dans l’ordre de création par défaut. `q`, `filter`, `match`, `sort` et `dir` fonctionnent comme dans la requête de lignes, pour exporter une vue ; un filtre invalide donne 400 `request.bad_request` qui nomme la condition. Pour protéger les utilisateurs de tableurs, un libellé ou un texte commençant par `=`, `+`, `-`, `@`, une tabulation ou un retour chariot est précédé de `\'` (injection CSV, OWASP) ; les cellules numériques sont exportées telles quelles. `raw=true` exporte les textes enregistrés sans changement, pour les programmes. Les exports simultanés sont limités par membre (429 `tables.too_many_exports`) et par instance (503 `internal.busy`) ; un export dont le lecteur ne lit plus rien pendant 30 secondes est interrompu.',
  },
  async handle({ actor, params, query }) {
    if (actor.kind === 'anonymous') throw appError('auth.unauthenticated');
    const { table, chunks } = await openTableExport(actor, params.id, query);
    return streamedDownload(chunks, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${table.slug}.csv"`,
    });
  },
});

