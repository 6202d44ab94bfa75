/**
 * A real node:http server mounting a fetch handler exactly as the web server mounts the API
 * (server/http/web-server.ts: client address and scheme stamped, the node-bridge, client errors
 * answered in the envelope), without Next.js: for tests that need a real socket (chunked bodies,
 * raw bytes, proxy headers, connection handling).
 */
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { answerClientErrorsOf } from '../http/client-error';
import { stampClientOrigin, type ProxyTrust } from '../http/client-origin';
import { serveWithFetchHandler } from '../http/node-bridge';

export interface BridgeServer {
  server: Server;
  port: number;
  /** `http://127.0.0.1:<port>` */
  base: string;
  close(): Promise<void>;
}

export async function startBridgeServer(
  handler: (request: Request) => Promise<Response>,
  options: { trustProxy?: ProxyTrust | boolean } = {},
): Promise<BridgeServer> {
  const serve = serveWithFetchHandler(handler);
  const server = createServer((req, res) => {
    stampClientOrigin(req, options.trustProxy ?? false);
    void serve(req, res);
  });
  answerClientErrorsOf(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    base: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Writes `bytes` on a fresh connection and resolves with everything the server sent (latin-1) once
 * the connection ends. `destroyAfterMs`: the client hangs up that long after writing, mid-request.
 */
export function sendRaw(port: number, bytes: string, options: { destroyAfterMs?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect(port, '127.0.0.1', () => {
      if (options.destroyAfterMs === undefined) socket.end(bytes);
      else {
        socket.write(bytes);
        setTimeout(() => socket.destroy(), options.destroyAfterMs);
      }
    });
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('close', () => resolve(text));
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? resolve(text) : reject(error)));
  });
}
