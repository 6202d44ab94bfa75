/**
 * The IMAP and SMTP probes against real servers: a private Dovecot and smtp-server peers (plain,
 * STARTTLS, implicit TLS), all with self-signed certificates on 127.0.0.1.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '@/server/core/free-port';
import { startDovecot, type DovecotServer } from '@/server/testing/mail-servers/dovecot';
import { startSmtpServer, type TestSmtpServer } from '@/server/testing/mail-servers/smtp';
import { probeImap, type ImapProbeInput } from './imap/probe';
import { probeSmtp, type SmtpProbeInput } from './smtp/probe';

const password = 'Pr0be-secret-7f3a';

/** A TCP server that counts connections and never speaks (or closes at once). */
async function startCountingServer(behaviour: 'silent' | 'close'): Promise<{ port: number; connections: () => number; stop: () => Promise<void> }> {
  let count = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    count += 1;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    if (behaviour === 'close') socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => count,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function expectSafe(result: object): void {
  const text = JSON.stringify(result);
  expect(text).not.toContain(password);
}

describe('probeImap', () => {
  let dovecot: DovecotServer;
  let base: ImapProbeInput;
  beforeAll(async () => {
    dovecot = await startDovecot({ users: [{ user: 'probe@example.test', password }] });
    base = {
      host: 'localhost',
      port: dovecot.tlsPort,
      secure: true,
      username: 'probe@example.test',
      password,
      allowInvalidCertificate: true,
      allowPrivate: true,
    };
  });
  afterAll(async () => {
    await dovecot?.stop();
  });

  it('accepts good credentials over implicit TLS', async () => {
    expect(await probeImap(base)).toEqual({ ok: true });
  });

  it('accepts good credentials on the plaintext port (STARTTLS) and on an IP literal', async () => {
    expect(await probeImap({ ...base, port: dovecot.plainPort, secure: false })).toEqual({ ok: true });
    expect(await probeImap({ ...base, host: '127.0.0.1' })).toEqual({ ok: true });
  });

  it('refuses a wrong password as auth_failed', async () => {
    const result = await probeImap({ ...base, password: 'Wrong-pass-91c2' });
    expect(result).toMatchObject({ ok: false, code: 'imap.auth_failed', reason: 'credentials_refused' });
    expect(JSON.stringify(result)).not.toContain('Wrong-pass-91c2');
  });

  it('refuses an unknown user as auth_failed', async () => {
    expect(await probeImap({ ...base, username: 'nobody@example.test' })).toMatchObject({ ok: false, code: 'imap.auth_failed' });
  });

  it('answers tls_failed for the self-signed certificate unless invalid certificates are allowed', async () => {
    const implicit = await probeImap({ ...base, allowInvalidCertificate: false });
    expect(implicit).toMatchObject({ ok: false, code: 'imap.tls_failed', reason: 'self_signed_certificate' });
    expectSafe(implicit);
    const starttls = await probeImap({ ...base, port: dovecot.plainPort, secure: false, allowInvalidCertificate: false });
    expect(starttls).toMatchObject({ ok: false, code: 'imap.tls_failed', reason: 'self_signed_certificate' });
  });

  it('answers tls_failed when TLS is spoken to the plaintext port', async () => {
    expect(await probeImap({ ...base, port: dovecot.plainPort, secure: true })).toMatchObject({ ok: false, code: 'imap.tls_failed', reason: 'not_tls' });
  });

  it('answers unreachable for a closed port', async () => {
    const port = await findFreePort();
    const result = await probeImap({ ...base, port });
    expect(result).toMatchObject({ ok: false, code: 'imap.unreachable', reason: 'connection_refused' });
    expect(JSON.stringify(result)).not.toContain('127.0.0.1');
  });

  it('answers host_not_found for an unknown host', async () => {
    expect(await probeImap({ ...base, host: 'nonexistent.invalid' })).toMatchObject({ ok: false, code: 'imap.host_not_found' });
  });

  it('refuses a private address without private hosts allowed, before any connection', async () => {
    const counting = await startCountingServer('silent');
    try {
      for (const host of ['localhost', '127.0.0.1', '2130706433', '[::1]']) {
        const result = await probeImap({ ...base, host, port: counting.port, allowPrivate: false });
        expect(result).toMatchObject({ ok: false, code: 'imap.unreachable', reason: 'address_not_allowed' });
        expect(JSON.stringify(result)).not.toContain('127.0.0.1');
      }
      expect(counting.connections()).toBe(0);
    } finally {
      await counting.stop();
    }
  });

  it('answers unreachable for a server that never greets or closes at once', async () => {
    const silent = await startCountingServer('silent');
    const closing = await startCountingServer('close');
    try {
      const plain = await probeImap({ ...base, port: silent.port, secure: false, timeouts: { greetingMs: 300 } });
      expect(plain).toMatchObject({ ok: false, code: 'imap.unreachable', reason: 'no_greeting' });
      const deadline = await probeImap({ ...base, port: silent.port, secure: true, timeouts: { totalMs: 300 } });
      expect(deadline).toMatchObject({ ok: false, code: 'imap.unreachable', reason: 'timeout' });
      const closed = await probeImap({ ...base, port: closing.port, secure: false });
      expect(closed).toMatchObject({ ok: false, code: 'imap.unreachable' });
    } finally {
      await silent.stop();
      await closing.stop();
    }
  });

  it('resolves names through the given DNS and connects to the checked address', async () => {
    const lookup = (host: string) =>
      host === 'imap.mail.test' ? Promise.resolve([{ address: '127.0.0.1', family: 4 }]) : Promise.reject(Object.assign(new Error('nx'), { code: 'ENOTFOUND' }));
    expect(await probeImap({ ...base, host: 'imap.mail.test', lookup })).toEqual({ ok: true });
    expect(await probeImap({ ...base, host: 'imap.mail.test', lookup, allowPrivate: false })).toMatchObject({ code: 'imap.unreachable' });
    expect(await probeImap({ ...base, host: 'other.mail.test', lookup })).toMatchObject({ code: 'imap.host_not_found' });
  });
});

describe('probeSmtp', () => {
  let plain: TestSmtpServer;
  let starttls: TestSmtpServer;
  let implicit: TestSmtpServer;
  let base: SmtpProbeInput;
  beforeAll(async () => {
    const users = [{ user: 'probe@example.test', password }];
    [plain, starttls, implicit] = await Promise.all([
      startSmtpServer({ users, tls: 'none' }),
      startSmtpServer({ users, tls: 'starttls' }),
      startSmtpServer({ users, tls: 'implicit' }),
    ]);
  });
  beforeAll(() => {
    base = {
      host: 'localhost',
      port: implicit.port,
      secure: true,
      username: 'probe@example.test',
      password,
      allowInvalidCertificate: true,
      allowPrivate: true,
    };
  });
  afterAll(async () => {
    await Promise.all([plain?.stop(), starttls?.stop(), implicit?.stop()]);
  });

  it('accepts good credentials: implicit TLS, STARTTLS and plaintext', async () => {
    expect(await probeSmtp(base)).toEqual({ ok: true });
    expect(await probeSmtp({ ...base, port: starttls.port, secure: false })).toEqual({ ok: true });
    expect(await probeSmtp({ ...base, port: plain.port, secure: false, allowInvalidCertificate: false })).toEqual({ ok: true });
    expect(await probeSmtp({ ...base, host: '127.0.0.1' })).toEqual({ ok: true });
  });

  it('refuses a wrong password as auth_failed', async () => {
    const result = await probeSmtp({ ...base, password: 'Wrong-pass-91c2' });
    expect(result).toMatchObject({ ok: false, code: 'smtp.auth_failed', reason: 'credentials_refused' });
    expect(JSON.stringify(result)).not.toContain('Wrong-pass-91c2');
    expect(implicit.failedLogins).toContain('probe@example.test');
  });

  it('answers tls_failed for the self-signed certificate unless invalid certificates are allowed', async () => {
    const result = await probeSmtp({ ...base, allowInvalidCertificate: false });
    expect(result).toMatchObject({ ok: false, code: 'smtp.tls_failed', reason: 'self_signed_certificate' });
    expectSafe(result);
    expect(await probeSmtp({ ...base, port: starttls.port, secure: false, allowInvalidCertificate: false })).toMatchObject({
      ok: false,
      code: 'smtp.tls_failed',
      reason: 'self_signed_certificate',
    });
  });

  it('answers tls_failed when TLS is spoken to a plaintext port', async () => {
    expect(await probeSmtp({ ...base, port: plain.port, secure: true })).toMatchObject({ ok: false, code: 'smtp.tls_failed', reason: 'not_tls' });
  });

  it('answers unreachable for a closed port and host_not_found for an unknown host', async () => {
    const port = await findFreePort();
    expect(await probeSmtp({ ...base, port })).toMatchObject({ ok: false, code: 'smtp.unreachable', reason: 'connection_refused' });
    expect(await probeSmtp({ ...base, host: 'nonexistent.invalid' })).toMatchObject({ ok: false, code: 'smtp.host_not_found' });
  });

  it('refuses a private address without private hosts allowed, before any connection', async () => {
    const counting = await startCountingServer('silent');
    try {
      for (const host of ['localhost', '127.0.0.1', '0x7f.1', '::ffff:127.0.0.1']) {
        const result = await probeSmtp({ ...base, host, port: counting.port, allowPrivate: false });
        expect(result).toMatchObject({ ok: false, code: 'smtp.unreachable', reason: 'address_not_allowed' });
      }
      expect(counting.connections()).toBe(0);
    } finally {
      await counting.stop();
    }
  });

  it('answers unreachable for a server that never greets', async () => {
    const silent = await startCountingServer('silent');
    try {
      const result = await probeSmtp({ ...base, port: silent.port, secure: false, timeouts: { greetingMs: 300 } });
      expect(result).toMatchObject({ ok: false, code: 'smtp.unreachable', reason: 'no_greeting' });
      const deadline = await probeSmtp({ ...base, port: silent.port, secure: true, timeouts: { totalMs: 300 } });
      expect(deadline).toMatchObject({ ok: false, code: 'smtp.unreachable', reason: 'timeout' });
    } finally {
      await silent.stop();
    }
  });
});
