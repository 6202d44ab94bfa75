/**
 * Routes served outside tRPC (plain route files), declared by hand so the document lists every route.
 * Each carries the same `x-access` extension as generated operations.
 */
import type { Access } from '../core/auth/access';
import type { Localised } from '../trpc/meta';

export interface ExtraPath {
  method: 'get' | 'post';
  path: string;
  tag: string;
  summary: Localised;
  description: Localised;
  access: Access;
  responses: Record<string, { en: string; fr: string; schema?: Record<string, unknown>; mediaType?: string }>;
  parameters?: Record<string, unknown>[];
}

const healthSchema = {
  type: 'object',
  required: ['status', 'brand', 'version', 'uptimeSeconds'],
  properties: {
    status: { const: 'ok' },
    brand: { type: 'string' },
    version: { type: 'string' },
    uptimeSeconds: { type: 'number', minimum: 0 },
  },
};

const readySchema = {
  type: 'object',
  required: ['status', 'checks'],
  properties: {
    status: { enum: ['ready', 'not_ready'] },
    checks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'ok'],
        properties: { name: { enum: ['database', 'migrations'] }, ok: { type: 'boolean' }, detail: { type: 'string' } },
      },
    },
  },
};

export const extraPaths: ExtraPath[] = [
  {
    method: 'get',
    path: '/api/v1/tables/{id}/export.csv',
    tag: 'Tables',
    access: { kind: 'scope', scope: 'tables:read' },
    summary: { en: 'Export a table as CSV', fr: 'Exporter une table en CSV' },
    description: {
      en: 'The table (by id or slug) as a CSV download: a header line of column labels, then every row, in creation order by default. `q`, `filter`, `match`, `sort` and `dir` work as in the rows query, to export a view.',
      fr: 'La table (par id ou par slug) en téléchargement CSV : une ligne d’en-têtes avec les libellés des colonnes, puis chaque ligne, dans l’ordre de création par défaut. `q`, `filter`, `match`, `sort` et `dir` fonctionnent comme dans la requête de lignes, pour exporter une vue.',
    },
    parameters: [
      { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'Table id or slug.' },
      { name: 'q', in: 'query', required: false, schema: { type: 'string', maxLength: 200 }, description: 'Full-text search over every cell of the row.' },
      { name: 'filter', in: 'query', required: false, schema: { type: 'string' }, description: 'JSON array of at most 20 conditions, as in the rows query.' },
      { name: 'match', in: 'query', required: false, schema: { enum: ['all', 'any'], default: 'all' } },
      { name: 'sort', in: 'query', required: false, schema: { type: 'string', default: 'createdAt' }, description: 'A column key, `createdAt` or `updatedAt`.' },
      { name: 'dir', in: 'query', required: false, schema: { enum: ['asc', 'desc'], default: 'asc' } },
    ],
    responses: {
      '200': { en: 'The CSV file.', fr: 'Le fichier CSV.', mediaType: 'text/csv', schema: { type: 'string' } },
      '400': { en: 'A bad view parameter (`request.bad_request`, naming the condition for a bad filter).', fr: 'Un paramètre de vue invalide (`request.bad_request`, qui nomme la condition pour un filtre invalide).' },
      '401': { en: 'No credential.', fr: 'Pas d’identifiant.' },
      '403': { en: 'The key lacks tables:read.', fr: 'La clé n’a pas tables:read.' },
      '404': { en: 'No such table (`tables.not_found`).', fr: 'Table inconnue (`tables.not_found`).' },
      '429': { en: 'Rate limited.', fr: 'Limite de débit atteinte.' },
    },
  },
  {
    method: 'get',
    path: '/healthz',
    tag: 'Instance',
    access: { kind: 'public' },
    summary: { en: 'Liveness', fr: 'Vivacité' },
    description: {
      en: 'Answers 200 while the process runs; never touches the database.',
      fr: 'Répond 200 tant que le processus tourne ; ne consulte jamais la base de données.',
    },
    responses: { '200': { en: 'The process is alive.', fr: 'Le processus est vivant.', schema: healthSchema } },
  },
  {
    method: 'get',
    path: '/readyz',
    tag: 'Instance',
    access: { kind: 'public' },
    summary: { en: 'Readiness', fr: 'Disponibilité' },
    description: {
      en: 'Checks the database and that every migration is applied: 200 when ready, 503 otherwise.',
      fr: 'Vérifie la base de données et que toutes les migrations sont appliquées : 200 si prêt, 503 sinon.',
    },
    responses: {
      '200': { en: 'Ready.', fr: 'Prêt.', schema: readySchema },
      '503': { en: 'Not ready; the failing check says why.', fr: 'Pas prêt ; la vérification en échec dit pourquoi.', schema: readySchema },
    },
  },
  {
    method: 'get',
    path: '/api/v1/openapi.json',
    tag: 'Instance',
    access: { kind: 'public' },
    summary: { en: 'This description', fr: 'Cette description' },
    description: {
      en: 'The OpenAPI 3.1 description generated from the route schemas, in English or French (`lang`).',
      fr: 'La description OpenAPI 3.1 générée à partir des schémas des routes, en anglais ou en français (`lang`).',
    },
    parameters: [{ name: 'lang', in: 'query', required: false, schema: { enum: ['en', 'fr'], default: 'en' } }],
    responses: {
      '200': { en: 'The OpenAPI document.', fr: 'Le document OpenAPI.', schema: { type: 'object' } },
      '400': { en: 'Unknown `lang`.', fr: '`lang` inconnu.' },
    },
  },
  {
    method: 'get',
    path: '/api/v1/ws',
    tag: 'Instance',
    access: { kind: 'session' },
    summary: { en: 'Real-time channel (WebSocket)', fr: 'Canal temps réel (WebSocket)' },
    description: {
      en: 'socket.io endpoint for live updates of the interface. Member session only: an API key gets 403 `api_key.session_required`, no credential 401 `auth.unauthenticated`.',
      fr: 'Point d’accès socket.io des mises à jour en direct de l’interface. Session de membre uniquement : une clé d’API reçoit 403 `api_key.session_required`, l’absence d’identifiant 401 `auth.unauthenticated`.',
    },
    responses: {
      '101': { en: 'Switching to WebSocket.', fr: 'Passage en WebSocket.' },
      '401': { en: 'No session.', fr: 'Pas de session.' },
      '403': { en: 'API keys are refused.', fr: 'Les clés d’API sont refusées.' },
    },
  },
];
