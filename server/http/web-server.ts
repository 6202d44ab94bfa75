/**
 * The web process: one Node HTTP server hosting the Next.js handler (pages, REST, tRPC) and the
 * real-time channel. The only file under server/ that imports `next`.
 */
import { createServer, type Server } from 'node:http';
import next from 'next';
import { config, databaseUrl } from '../core/config';
import { log } from '../core/log';
import { answerClientErrorsOf } from './client-error';
import { proxyTrustOf, stampClientOrigin } from './client-origin';
import { serveWithFetchHandler } from './node-bridge';
import { createRealtimeServer, isRealtimeRequest } from './realtime-server';
import { handleApiRequest, isApiRequest } from './api-handler';
import { securePageRequest } from './security-headers';

export interface WebServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

export async function startWebServer(options: { dev: boolean; port: number; host: string }): Promise<WebServer> {
  const app = next({ dev: options.dev, hostname: options.host, port: options.port, dir: process.cwd() });
  await app.prepare();
  const handle = app.getRequestHandler();
  const nextUpgrade = options.dev ? app.getUpgradeHandler() : null;
  const realtime = createRealtimeServer(databaseUrl());
  const trustProxy = proxyTrustOf(config());
  const serveApi = serveWithFetchHandler(handleApiRequest);

  const server = createServer((req, res) => {
    stampClientOrigin(req, trustProxy);
    if (isRealtimeRequest(req.url)) void realtime.handleRequest(req, res);
    else if (isApiRequest(req.url)) void serveApi(req, res);
    else {
      // Pages: a policy with a fresh nonce that Next.js stamps on its scripts, and no framing.
      securePageRequest(req, res, { dev: options.dev });
      void handle(req, res);
    }
  });
  answerClientErrorsOf(server);
  server.on('upgrade', (req, socket, head) => {
    stampClientOrigin(req, trustProxy);
    if (isRealtimeRequest(req.url)) void realtime.handleUpgrade(req, socket, head);
    else if (nextUpgrade) void nextUpgrade(req, socket, head);
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = `http://${options.host === '0.0.0.0' ? 'localhost' : options.host}:${port}`;
  log.info({ url }, 'web server listening');

  return {
    server,
    url,
    async close() {
      await realtime.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
    },
  };
}
