/** GET /healthz (process only, no database) and GET /readyz (database and migrations). */
import { config } from '../core/config';
import { databaseCheck, migrationsCheck } from '../core/health-checks';
import { serviceVersion, startedAt } from '../core/version';
import { jsonAnswer } from './json-answer';

export function handleHealthz(): Response {
  return jsonAnswer(
    {
      status: 'ok',
      brand: config().BRAND_NAME,
      version: serviceVersion,
      uptimeSeconds: Math.max(0, (Date.now() - startedAt) / 1000),
    },
    200,
  );
}

export async function handleReadyz(): Promise<Response> {
  const checks = await Promise.all([databaseCheck(), migrationsCheck()]);
  const ready = checks.every((check) => check.ok);
  return jsonAnswer({ status: ready ? 'ready' : 'not_ready', checks }, ready ? 200 : 503);
}
