/** GET /healthz (process only, no database) and GET /readyz (database and migrations). */
import { config } from '../core/config';
import { db } from '../core/db';
import { migrationStatus } from '../core/migrations';
import { serviceVersion, startedAt } from '../core/version';

export function handleHealthz(): Response {
  return Response.json({
    status: 'ok',
    brand: config().BRAND_NAME,
    version: serviceVersion,
    uptimeSeconds: Math.max(0, (Date.now() - startedAt) / 1000),
  });
}

interface Check {
  name: 'database' | 'migrations';
  ok: boolean;
  detail?: string;
}

async function databaseCheck(): Promise<Check> {
  try {
    await db().$queryRaw`SELECT 1`;
    return { name: 'database', ok: true };
  } catch {
    return { name: 'database', ok: false, detail: 'database unreachable' };
  }
}

async function migrationsCheck(): Promise<Check> {
  try {
    const status = await migrationStatus(db());
    return status.ok
      ? { name: 'migrations', ok: true }
      : { name: 'migrations', ok: false, detail: status.detail ?? `pending: ${status.pending.join(', ')}` };
  } catch {
    return { name: 'migrations', ok: false, detail: 'migration state unreadable' };
  }
}

export async function handleReadyz(): Promise<Response> {
  const checks = await Promise.all([databaseCheck(), migrationsCheck()]);
  const ready = checks.every((check) => check.ok);
  return Response.json({ status: ready ? 'ready' : 'not_ready', checks }, { status: ready ? 200 : 503 });
}
