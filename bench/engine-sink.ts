/**
 * The local HTTP sink the engine bench's workflow calls (bench/engine.ts): a bare node:http server on
 * 127.0.0.1 answering every request 200 `{"ok":true}` once its body is read, counting requests and repeated
 * `Idempotency-Key` headers (the workflow sends the execution id: a repeat means a call made twice).
 */
import { createServer } from 'node:http';

export interface Sink {
  url: string;
  requests(): number;
  duplicates(): number;
  close(): Promise<void>;
}

export async function startSink(): Promise<Sink> {
  let requests = 0;
  let duplicates = 0;
  const seen = new Set<string>();
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      requests += 1;
      const key = request.headers['idempotency-key'];
      if (typeof key === 'string') {
        if (seen.has(key)) duplicates += 1;
        else seen.add(key);
      }
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '11' });
      response.end('{"ok":true}');
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    duplicates: () => duplicates,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
