/** GET /healthz and GET /readyz as plain routes: public, no body, their answers described by zod. */
import { z } from 'zod';
import { handleHealthz, handleReadyz } from './health';
import { plainRoute } from './plain/plain-route';

const healthSchema = z.object({
  status: z.literal('ok'),
  brand: z.string(),
  version: z.string(),
  uptimeSeconds: z.number().min(0),
});

const readySchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.array(z.object({ name: z.enum(['database', 'migrations']), ok: z.boolean(), detail: z.string().optional() })),
});

export const healthzRoute = plainRoute({
  method: 'GET',
  path: '/healthz',
  access: { kind: 'public' },
  params: z.object({}),
  success: { status: 200, mediaType: 'application/json', schema: healthSchema, description: { en: 'The process is alive.', fr: 'Le processus est vivant.' } },
  tag: 'Instance',
  summary: { en: 'Liveness', fr: 'Vivacité' },
  description: {
    en: 'Answers 200 while the process runs; never touches the database.',
    fr: 'Répond 200 tant que le processus tourne ; ne consulte jamais la base de données.',
  },
  handle: handleHealthz,
});

export const readyzRoute = plainRoute({
  method: 'GET',
  path: '/readyz',
  access: { kind: 'public' },
  params: z.object({}),
  success: {
    status: 200,
    mediaType: 'application/json',
    schema: readySchema,
    description: { en: 'Ready; otherwise 503 with the same shape, the failing check saying why.', fr: 'Prêt ; sinon 503 avec la même forme, la vérification en échec disant pourquoi.' },
  },
  errors: [],
  tag: 'Instance',
  summary: { en: 'Readiness', fr: 'Disponibilité' },
  description: {
    en: 'Checks the database and that every migration is applied: 200 when ready, 503 otherwise.',
    fr: 'Vérifie la base de données et que toutes les migrations sont appliquées : 200 si prêt, 503 sinon.',
  },
  handle: handleReadyz,
});
