/**
 * What answers the web server's page requests (everything that is not the API nor the real-time
 * channel): Next.js, in development or from the production build, or nothing at all.
 *
 * Without pages (`WEB_API_ONLY=1`) the process serves only what is ours (REST, tRPC, webhooks, plain
 * routes with /healthz and /readyz, the socket) and never loads Next.js: it starts in a fraction of
 * the time and memory. The multi-process test runs its web processes so
 * (runner/multi-process.int.test.ts), and an operator may run an API and webhook tier so behind the
 * proxy; every page path answers the envelope's 404 `request.not_found` there.
 *
 * The only file under server/ that imports `next` (lazily, so an API-only process never loads it).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError } from '../core/errors/app-error';
import { errorResponse } from './error-response';
import { serveWithFetchHandler } from './node-bridge';
import { securePageRequest } from './security-headers';

export interface PageHandler {
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** WebSocket upgrades of the pages (Next's hot reload in development); null: refused. */
  upgrade: ((req: IncomingMessage, socket: Duplex, head: Buffer) => void) | null;
  close(): Promise<void>;
}

export type PageMode = { kind: 'next'; dev: boolean } | { kind: 'none' };

export async function createPageHandler(mode: PageMode, listen: { host: string; port: number }): Promise<PageHandler> {
  if (mode.kind === 'none') return noPages();
  const { default: next } = await import('next');
  const app = next({ dev: mode.dev, hostname: listen.host, port: listen.port, dir: process.cwd() });
  await app.prepare();
  const handle = app.getRequestHandler();
  const upgrade = mode.dev ? app.getUpgradeHandler() : null;
  return {
    handle(req, res) {
      // Pages: a policy with a fresh nonce that Next.js stamps on its scripts, and no framing.
      securePageRequest(req, res, { dev: mode.dev });
      void handle(req, res);
    },
    upgrade: upgrade ? (req, socket, head) => void upgrade(req, socket, head) : null,
    close: () => app.close(),
  };
}

function noPages(): PageHandler {
  const answerNotFound = serveWithFetchHandler(async () => errorResponse(new AppError('request.not_found')));
  return {
    handle: (req, res) => void answerNotFound(req, res),
    upgrade: null,
    close: async () => {},
  };
}
