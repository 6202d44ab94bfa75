/**
 * A TCP proxy for tests that can FREEZE a connection the way a broken network does: bytes stop
 * flowing both ways while every socket stays open (no FIN, no RST), so neither side learns anything
 * until a timeout of its own fires. `thaw()` lets the held bytes through and forwarding resumes.
 * Connections opened while frozen are accepted and held the same way. Used to prove the mail
 * watch notices a dead connection and the watchdog raises `mailbox.stalled` (runner/mail/health-freeze.int.test.ts).
 */
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

export interface FreezableProxy {
  port: number;
  readonly frozen: boolean;
  /** Connections opened through the proxy so far. */
  readonly connections: number;
  freeze(): void;
  thaw(): void;
  close(): Promise<void>;
}

export async function startFreezableProxy(target: { host: string; port: number }): Promise<FreezableProxy> {
  let frozen = false;
  let connections = 0;
  const sockets = new Set<Socket>();
  /** Bytes held while frozen, per direction, flushed in order on thaw. */
  const held: Array<{ to: Socket; chunk: Buffer }> = [];
  const forward = (to: Socket, chunk: Buffer) => {
    if (frozen) held.push({ to, chunk });
    else if (!to.destroyed) to.write(chunk);
  };
  const proxy = createServer((client) => {
    connections += 1;
    const upstream = connect(target.port, target.host);
    sockets.add(client).add(upstream);
    client.on('data', (chunk: Buffer) => forward(upstream, chunk));
    upstream.on('data', (chunk: Buffer) => forward(client, chunk));
    for (const socket of [client, upstream]) {
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    port: (proxy.address() as AddressInfo).port,
    get frozen() {
      return frozen;
    },
    get connections() {
      return connections;
    },
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
      for (const { to, chunk } of held.splice(0)) if (!to.destroyed) to.write(chunk);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        proxy.close(() => resolve());
      }),
  };
}
