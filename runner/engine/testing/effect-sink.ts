/**
 * The outside world of the crash tests: an HTTP server that counts each call by its `Idempotency-Key`
 * (the run's id, as the crash graph's HTTP step sends it), answering after `delayMs` so a kill can land
 * during a call. An effect done twice shows as a count above 1.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EffectSink {
  url: string;
  /** Calls answered, by idempotency key. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startEffectSink(path: string, delayMs: number): Promise<EffectSink> {
  const hits = new Map<string, number>();
  const server = http.createServer((request, response) => {
    const key = String(request.headers['idempotency-key'] ?? 'none');
    request.resume();
    request.on('end', () => {
      setTimeout(() => {
        hits.set(key, (hits.get(key) ?? 0) + 1);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"ok":true}');
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
