/** TCP port probing for processes we start ourselves (embedded PostgreSQL, test servers). */
import net from 'node:net';

export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** A port the OS considers free right now (another process may still take it before we bind). */
export function findFreePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ port: 0, host, exclusive: true }, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** `preferred` when it is free, otherwise any free port; 0 means no preference. */
export async function portOrFallback(preferred: number, host = '127.0.0.1'): Promise<number> {
  if (preferred > 0 && (await isPortFree(preferred, host))) return preferred;
  return findFreePort(host);
}
