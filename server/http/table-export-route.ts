/**
 * GET /api/v1/tables/{id}/export.csv — a download, so a plain route rather than a JSON procedure. Its
 * view parameters are the rows query's own schema; access, rate limit and errors come from the pipeline.
 */
import { z } from 'zod';
import { openTableExport } from '../domains/tables/csv-export';
import { listRowsInput } from '../domains/tables/rows-schemas';
import { servePlainRoute } from './plain/pipeline';
import { plainRoute } from './plain/plain-route';
import { streamedDownload } from './plain/responses';

const exportParams = listRowsInput.pick({ id: true });
const exportView = listRowsInput.pick({ q: true, filter: true, match: true, sort: true, dir: true }).strict();

export const tableExportRoute = plainRoute({
  method: 'GET',
  path: '/api/v1/tables/{id}/export.csv',
  access: { kind: 'scope', scope: 'tables:read' },
  params: exportParams,
  query: exportView,
  success: {
    status: 200,
    mediaType: 'text/csv',
    schema: z.string(),
    description: { en: 'The CSV file.', fr: 'Le fichier CSV.' },
  },
  errors: ['tables.not_found'],
  tag: 'Tables',
  summary: { en: 'Export a table as CSV', fr: 'Exporter une table en CSV' },
  description: {
    en: 'The table (by id or slug) as a CSV download: a header line of column labels, then every row, in creation order by default. `q`, `filter`, `match`, `sort` and `dir` work as in the rows query, to export a view; a bad filter is 400 `request.bad_request` naming the condition.',
    fr: 'La table (par id ou par slug) en téléchargement CSV : une ligne d’en-têtes avec les libellés des colonnes, puis chaque ligne, dans l’ordre de création par défaut. `q`, `filter`, `match`, `sort` et `dir` fonctionnent comme dans la requête de lignes, pour exporter une vue ; un filtre invalide donne 400 `request.bad_request` qui nomme la condition.',
  },
  async handle({ params, query }) {
    const { table, chunks } = await openTableExport(params.id, query);
    return streamedDownload(chunks, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${table.slug}.csv"`,
    });
  },
});

/** Serves the export of table `ref` through the pipeline, the view taken from the request's query. */
export function handleTableExport(request: Request, ref: string): Promise<Response> {
  return servePlainRoute(tableExportRoute, { id: ref }, request);
}
