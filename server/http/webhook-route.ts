/**
 * POST /hooks/wf/{token} — the inbound webhook entry (spec: Inbound webhook), a plain route outside
 * `/api/v1`: authorised by the token in the URL (no session, key, cookie or cross-origin rule), rate
 * limited per client address before anything else is read, the body bounded to 256 KB on the bytes
 * read and kept raw (the optional signature covers the exact bytes), then started in its turn through
 * the process's intake (webhook-intake.ts). See server/engine/dispatch/webhook.ts for the checks and the
 * start.
 */
import { z } from 'zod';
import { config } from '../core/config';
import { receiveWebhook, webhookBodyBytes } from '../engine/dispatch/webhook';
import { departureSignalOf } from './node-bridge';
import { plainRoute } from './plain/plain-route';
import { webhookIntake } from './webhook-intake';
import { jsonAnswer } from './json-answer';

export const webhookRoute = plainRoute({
  method: 'POST',
  path: '/hooks/wf/{token}',
  access: { kind: 'urlToken' },
  params: z.object({ token: z.string().min(1).max(512).describe('The workflow’s webhook token.') }),
  body: {
    mediaTypes: ['application/json'],
    description: { en: 'A JSON object (at most 256 KB): the trigger data of the run.', fr: 'Un objet JSON (256 Ko au plus) : les données de déclenchement de l’exécution.' },
  },
  maxBodyBytes: webhookBodyBytes,
  // Per client address and minute, WEBHOOK_RATE_LIMIT (120 by default; 0: off).
  rateLimit: { limit: () => config().WEBHOOK_RATE_LIMIT, windowSeconds: 60 },
  success: {
    status: 202,
    mediaType: 'application/json',
    schema: z.object({ executionId: z.uuid() }),
    description: { en: 'The run was started (or, for a repeated `Idempotency-Key`, had been).', fr: 'L’exécution a été démarrée (ou, pour un `Idempotency-Key` répété, l’avait été).' },
  },
  errors: ['webhook.not_found', 'webhook.signature_required', 'webhook.signature_invalid', 'idempotency.invalid_key', 'internal.busy'],
  tag: 'Workflows',
  summary: { en: 'Start a workflow from a webhook', fr: 'Démarrer un workflow par webhook' },
  description: {
    en: 'Authorised by the token of `POST /api/v1/workflows/{id}/webhook`. The body, a JSON object of at most 256 KB (413 `request.payload_too_large` above; anything but an object 400 `request.bad_request`), becomes the trigger data of a real execution of the published version; answers 202 `{executionId}`. Rate-limited per client address: 120 requests a minute unless the instance sets `WEBHOOK_RATE_LIMIT` (`x-rate-limit-per-ip` gives this instance’s figure), 429 `request.rate_limited` beyond. An unknown token, and a workflow archived, unpublished, paused or not starting with the webhook trigger, are all 404 `webhook.not_found`. When the workflow has a signing secret, `X-Signature: sha256=<hex HMAC-SHA256 of "<X-Signature-Timestamp>.<raw body>">` and `X-Signature-Timestamp` (unix seconds, within 5 minutes) are required: 401 `webhook.signature_required` without them, `webhook.signature_invalid` when they do not match. An optional `Idempotency-Key` header (1-200 characters, else 400 `idempotency.invalid_key`) makes a repeat within 24 hours answer 202 with the first `executionId`, starting nothing. A workflow that already has `WEBHOOK_MAX_QUEUED` runs waiting (1000 unless the instance sets it) starts nothing more until they drain: 503 `internal.busy` with `Retry-After` (a repeated key still answers its run). Each web process starts `WEBHOOK_CONCURRENCY` calls at once (4 unless the instance sets it; half as many for a workflow that has at least as many runs queued as its concurrency) while up to `WEBHOOK_QUEUE` more wait their turn (100), a quarter of them at most for one workflow; beyond, 503 `internal.busy` with `Retry-After: 1`.',
    fr: 'Autorisé par le jeton de `POST /api/v1/workflows/{id}/webhook`. Le corps, un objet JSON de 256 Ko au plus (au-delà 413 `request.payload_too_large` ; autre chose qu’un objet 400 `request.bad_request`), devient les données de déclenchement d’une exécution réelle de la version publiée ; répond 202 `{executionId}`. Limité par adresse cliente : 120 requêtes par minute sauf si l’instance fixe `WEBHOOK_RATE_LIMIT` (`x-rate-limit-per-ip` donne le chiffre de cette instance), 429 `request.rate_limited` au-delà. Un jeton inconnu, et un workflow archivé, non publié, en pause ou qui ne commence pas par le déclencheur webhook, donnent tous 404 `webhook.not_found`. Quand le workflow a un secret de signature, `X-Signature: sha256=<HMAC-SHA256 hexadécimal de "<X-Signature-Timestamp>.<corps brut>">` et `X-Signature-Timestamp` (secondes Unix, à 5 minutes près) sont exigés : 401 `webhook.signature_required` sans eux, `webhook.signature_invalid` s’ils ne correspondent pas. Un en-tête facultatif `Idempotency-Key` (1 à 200 caractères, sinon 400 `idempotency.invalid_key`) fait qu’une répétition dans les 24 heures répond 202 avec le premier `executionId`, sans rien démarrer. Un workflow qui a déjà `WEBHOOK_MAX_QUEUED` exécutions en attente (1000 sauf si l’instance le fixe) ne démarre plus rien tant qu’elles ne sont pas écoulées : 503 `internal.busy` avec `Retry-After` (une clé répétée répond toujours son exécution). Chaque processus web démarre `WEBHOOK_CONCURRENCY` appels à la fois (4 sauf si l’instance le fixe ; moitié moins pour un workflow qui a au moins autant d’exécutions en file que sa concurrence) pendant que jusqu’à `WEBHOOK_QUEUE` autres attendent leur tour (100), dont un quart au plus pour un même workflow ; au-delà, 503 `internal.busy` avec `Retry-After: 1`.',
  },
  async handle({ request, params, body }) {
    const intake = webhookIntake();
    const result = await intake.run(
      params.token,
      () =>
        receiveWebhook({
          token: params.token,
          rawBody: body,
          signature: request.headers.get('x-signature'),
          timestamp: request.headers.get('x-signature-timestamp'),
          idempotencyKey: request.headers.get('idempotency-key'),
          // The workflow's backlog as its look-up counted it: the intake narrows for a workflow whose runs pile up.
          onBacklog: (seen) => intake.noteBacklog(params.token, seen),
        }),
      // A call whose sender hangs up while it waits its turn starts nothing.
      departureSignalOf(request),
    );
    return jsonAnswer(result, 202, { 'cache-control': 'no-store' });
  },
});
