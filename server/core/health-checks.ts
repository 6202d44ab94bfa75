/**
 * The readiness checks shared by the web process (GET /readyz, server/http/health.ts) and the runner's
 * health endpoint (runner/health-server.ts): each one query, none throwing, a failure saying why
 * without the driver's message (it may name the host or the user).
 */
import { db } from './db';
import { migrationStatus } from './migrations';

export interface HealthCheck<Name extends string = string> {
  name: Name;
  ok: boolean;
  detail?: string;
}

export async function databaseCheck(): Promise<HealthCheck<'database'>> {
  try {
    await db().$queryRaw`SELECT 1`;
    return { name: 'database', ok: true };
  } catch {
    return { name: 'database', ok: false, detail: 'database unreachable' };
  }
}

/** Every migration of this release applied (a process started before `db:migrate` ran is not ready). */
export async function migrationsCheck(): Promise<HealthCheck<'migrations'>> {
  try {
    const status = await migrationStatus(db());
    return status.ok
      ? { name: 'migrations', ok: true }
      : { name: 'migrations', ok: false, detail: status.detail ?? `pending: ${status.pending.join(', ')}` };
  } catch {
    return { name: 'migrations', ok: false, detail: 'migration state unreadable' };
  }
}
