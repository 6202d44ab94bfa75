/**
 * The runner's health endpoint for an orchestrator's probes (the runner serves nothing else over
 * HTTP): on RUNNER_HEALTH_HOST:RUNNER_HEALTH_PORT when the port is set, nothing otherwise.
 *
 * - GET /healthz: 200 while the process answers (liveness; never touches the database, so a database
 *   outage does not get every runner restarted);
 * - GET /readyz: 200 when the database answers, every migration of this release is applied and the
 *   job worker runs; 503 with the same shape otherwise (the failing check says why), also while the
 *   runner stops.
 *
 * The same shapes as the web process's /healthz and /readyz. Plain node:http: the runner loads no
 * web framework.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { config } from '../server/core/config';
import { AppError } from '../server/core/errors/app-error';
import { databaseCheck, migrationsCheck, type HealthCheck } from '../server/core/health-checks';
import { serviceVersion, startedAt } from '../server/core/version';

export interface RunnerHealthServer {
  url: string;
  close(): Promise<void>;
}

export interface RunnerHealthOptions {
  port: number;
  host: string;
  /** Whether the job worker is running (false once it ended or the runner began to stop). */
  workerRunning(): boolean;
}

function answer(res: ServerResponse, status: number, body: unknown, method: string | undefined): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(method === 'HEAD' ? undefined : text);
}

function refuse(res: ServerResponse, error: AppError, method: string | undefined): void {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  answer(res, error.status, error.toBody(), method);
}

async function readiness(options: RunnerHealthOptions): Promise<{ ready: boolean; checks: HealthCheck[] }> {
  const worker: HealthCheck<'worker'> = options.workerRunning() ? { name: 'worker', ok: true } : { name: 'worker', ok: false, detail: 'job worker not running' };
  const checks: HealthCheck[] = [...(await Promise.all([databaseCheck(), migrationsCheck()])), worker];
  return { ready: checks.every((check) => check.ok), checks };
}

async function route(req: IncomingMessage, res: ServerResponse, options: RunnerHealthOptions): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (path !== '/healthz' && path !== '/readyz') return refuse(res, new AppError('request.not_found'), req.method);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return refuse(res, new AppError('request.method_not_allowed', { headers: { allow: 'GET, HEAD' } }), req.method);
  }
  if (path === '/healthz') {
    return answer(res, 200, { status: 'ok', brand: config().BRAND_NAME, version: serviceVersion, uptimeSeconds: Math.max(0, (Date.now() - startedAt) / 1000) }, req.method);
  }
  const { ready, checks } = await readiness(options);
  answer(res, ready ? 200 : 503, { status: ready ? 'ready' : 'not_ready', checks }, req.method);
}

export async function startRunnerHealthServer(options: RunnerHealthOptions): Promise<RunnerHealthServer> {
  const server = createServer((req, res) => {
    // A probe sends no body; whatever comes is not read.
    req.resume();
    route(req, res, options).catch(() => {
      if (!res.headersSent) refuse(res, new AppError('internal.error'), req.method);
      else res.destroy();
    });
  });
  // Probes come every few seconds: a connection kept open between them costs nothing worth saving.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
