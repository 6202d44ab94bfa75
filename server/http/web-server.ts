/**
 * The web process: one Node HTTP server hosting our API entry (REST, tRPC, webhooks, plain routes),
 * the real-time channel and the pages (./page-handler.ts: Next.js, or none in an API-only process).
 * The request routing is the same whatever serves the pages.
 */
import { createServer, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { config, databaseUrl } from '../core/config';
import { log } from '../core/log';
import { answerClientErrorsOf } from './client-error';
import { proxyTrustOf, stampClientOrigin } from './client-origin';
import { createPageHandler, type PageMode } from './page-handler';
import { createRealtimeServer, isRealtimeRequest } from './realtime-server';
import { createNodeApiHandler, isApiRequest } from './api-handler';

export interface WebServer {
  server: Server;
  url: string;
  /**
   * Stops accepting connections, ends the sockets of the real-time channel (their clients reconnect to another
   * process), lets the requests in flight finish for up to `drainMs` (each connection closed once its request
   * is answered), then cuts what is left.
   */
  close(drainMs?: number): Promise<void>;
}

/** How often a draining server closes the connections whose request has been answered. */
const drainPollMs = 50;

/**
 * How long an answered keep-alive connection may wait for its next request. Longer than the idle time of what
 * reuses it: nginx keeps an upstream connection 60 s, a cloud load balancer 60 s, an HTTP client until the
 * `Keep-Alive: timeout` hint. With Node's 5 s a proxy or client sent its next request on a connection the process
 * was closing at that moment, and got a reset instead of an answer (a POST is then not retried).
 */
export const keepAliveSeconds = 65;

export async function startWebServer(options: { pages: PageMode; port: number; host: string }): Promise<WebServer> {
  const pages = await createPageHandler(options.pages, { host: options.host, port: options.port });
  const realtime = createRealtimeServer(databaseUrl());
  const trustProxy = proxyTrustOf(config());
  const serveApi = createNodeApiHandler();

  const server = createServer((req, res) => {
    stampClientOrigin(req, trustProxy);
    if (isRealtimeRequest(req.url)) void realtime.handleRequest(req, res);
    else if (isApiRequest(req.url)) void serveApi(req, res);
    else pages.handle(req, res);
  });
  server.keepAliveTimeout = keepAliveSeconds * 1000;
  answerClientErrorsOf(server);
  server.on('upgrade', (req, socket, head) => {
    stampClientOrigin(req, trustProxy);
    if (isRealtimeRequest(req.url)) void realtime.handleUpgrade(req, socket, head);
    else if (pages.upgrade) pages.upgrade(req, socket, head);
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = `http://${options.host === '0.0.0.0' ? 'localhost' : options.host}:${port}`;
  log.info({ url, pages: options.pages.kind }, 'web server listening');

  return {
    server,
    url,
    async close(drainMs = 0) {
      let drained = false;
      const closed = new Promise<void>((resolve) => server.close(() => resolve())).then(() => (drained = true));
      const realtimeClosed = realtime.close();
      // A keep-alive connection stays open after its answer: closed here as soon as it is idle.
      for (const deadline = Date.now() + drainMs; !drained && Date.now() < deadline; await sleep(drainPollMs)) server.closeIdleConnections();
      server.closeAllConnections();
      await closed;
      await realtimeClosed;
      await pages.close();
    },
  };
}
