/**
 * The test mail servers themselves: a private Dovecot accepts logins on both listeners, takes mail by
 * APPEND and serves it back; the SMTP peer requires AUTH and records what it accepts.
 */
import { existsSync } from 'node:fs';
import net from 'node:net';
import { ImapFlow } from 'imapflow';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendMessage, appendMessages, buildRawMessage, openTestImap } from './deliver';
import { startDovecot, type DovecotServer } from './dovecot';
import { startSmtpServer, type SmtpTlsMode } from './smtp';

function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

describe('startDovecot', () => {
  let server: DovecotServer;
  beforeAll(async () => {
    server = await startDovecot({ users: [{ user: 'alice@example.test', password: 's3cret-alice' }] });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('accepts a login over implicit TLS with its own certificate as the only trusted one', async () => {
    const client = new ImapFlow({
      host: server.host,
      port: server.tlsPort,
      secure: true,
      auth: { user: 'alice@example.test', pass: 's3cret-alice' },
      tls: { ca: [server.certPem], servername: 'localhost' },
      logger: false,
    });
    await client.connect();
    expect(client.secureConnection).toBe(true);
    expect(client.capabilities.has('IDLE')).toBe(true);
    expect(client.capabilities.has('QRESYNC')).toBe(true);
    const folders = await client.list();
    expect(folders.map((folder) => folder.specialUse).filter(Boolean).sort()).toEqual(
      ['\\Archive', '\\Drafts', '\\Inbox', '\\Junk', '\\Sent', '\\Trash'],
    );
    await client.logout();
  });

  it('upgrades the plaintext listener with STARTTLS', async () => {
    const client = new ImapFlow({
      host: server.host,
      port: server.plainPort,
      secure: false,
      auth: { user: 'alice@example.test', pass: 's3cret-alice' },
      tls: { ca: [server.certPem], servername: 'localhost' },
      logger: false,
    });
    await client.connect();
    expect(client.secureConnection).toBe(true);
    await client.logout();
  });

  it('refuses a wrong password', async () => {
    const client = new ImapFlow({
      host: server.host,
      port: server.plainPort,
      secure: false,
      doSTARTTLS: false,
      auth: { user: 'alice@example.test', pass: 'wrong' },
      logger: false,
    });
    client.on('error', () => {});
    await expect(client.connect()).rejects.toMatchObject({ authenticationFailed: true });
  });

  it('delivers a built MIME message by APPEND and serves it back intact', async () => {
    const raw = await buildRawMessage({
      from: 'Bob <bob@example.test>',
      to: 'alice@example.test',
      subject: 'Quarterly report — été',
      text: 'Plain body',
      html: '<p>HTML <b>body</b></p>',
      messageId: '<report-1@example.test>',
      inReplyTo: '<earlier@example.test>',
      references: ['<first@example.test>', '<earlier@example.test>'],
      date: new Date('2024-03-01T10:00:00Z'),
      headers: { 'List-Id': '<reports.example.test>' },
      attachments: [{ filename: 'report.csv', content: 'a,b\n1,2\n', contentType: 'text/csv' }],
    });
    expect(raw.toString()).toContain('\r\n');
    const appended = await appendMessage({
      server,
      user: 'alice@example.test',
      password: 's3cret-alice',
      raw,
      flags: ['\\Flagged'],
      internalDate: new Date('2024-03-01T10:00:05Z'),
    });
    expect(appended.uid).toBeGreaterThan(0);

    const client = await openTestImap({ server, user: 'alice@example.test', password: 's3cret-alice' });
    try {
      await client.mailboxOpen('INBOX');
      const message = await client.fetchOne(
        String(appended.uid),
        { envelope: true, flags: true, internalDate: true, bodyStructure: true, headers: ['list-id', 'references'] },
        { uid: true },
      );
      expect(message).toBeTruthy();
      if (!message) return;
      expect(message.flags?.has('\\Flagged')).toBe(true);
      expect(new Date(message.internalDate!).toISOString()).toBe('2024-03-01T10:00:05.000Z');
      expect(message.envelope).toMatchObject({
        subject: 'Quarterly report — été',
        messageId: '<report-1@example.test>',
        inReplyTo: '<earlier@example.test>',
        from: [{ name: 'Bob', address: 'bob@example.test' }],
        to: [{ address: 'alice@example.test' }],
      });
      const headers = message.headers!.toString();
      expect(headers).toMatch(/^List-Id: <reports\.example\.test>\r$/im);
      expect(headers).toMatch(/^References: <first@example\.test> <earlier@example\.test>\r$/im);
      // multipart/mixed → [multipart/alternative → text/plain, text/html], text/csv attachment
      const root = message.bodyStructure!;
      expect(root.type).toBe('multipart/mixed');
      expect(root.childNodes?.map((node) => node.type)).toEqual(['multipart/alternative', 'text/csv']);
      expect(root.childNodes?.[0].childNodes?.map((node) => node.type)).toEqual(['text/plain', 'text/html']);
      const attachment = root.childNodes![1];
      expect(attachment.disposition).toBe('attachment');
      expect(attachment.dispositionParameters?.filename).toBe('report.csv');
      const partText = async (part: string) => {
        const { content } = await client.download(String(appended.uid), part, { uid: true });
        const chunks: Buffer[] = [];
        for await (const chunk of content!) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks).toString('utf8');
      };
      expect(await partText(attachment.part!)).toBe('a,b\n1,2\n');
      expect((await partText('1.1')).trim()).toBe('Plain body');
      expect(await partText('1.2')).toContain('<b>body</b>');
    } finally {
      await client.logout();
    }
  });

  it('appends many messages over one connection into another folder', async () => {
    const raws = await Promise.all(
      [1, 2, 3].map((n) => buildRawMessage({ from: 'x@example.test', to: 'alice@example.test', subject: `n${n}`, text: `${n}` })),
    );
    const results = await appendMessages(
      { server, user: 'alice@example.test', password: 's3cret-alice' },
      raws.map((raw) => ({ raw, folder: 'Archive' })),
    );
    expect(results.map((result) => result.folder)).toEqual(['Archive', 'Archive', 'Archive']);
    const client = await openTestImap({ server, user: 'alice@example.test', password: 's3cret-alice' });
    expect(await client.status('Archive', { messages: true })).toMatchObject({ messages: 3 });
    await client.logout();
  });

  it('adds a user and replaces a password while running', async () => {
    await server.addUser({ user: 'carol', password: 'first' });
    const login = (pass: string) => {
      const client = new ImapFlow({ host: server.host, port: server.plainPort, secure: false, doSTARTTLS: false, auth: { user: 'carol', pass }, logger: false });
      client.on('error', () => {});
      return client.connect().then(
        () => client.logout().then(() => true),
        () => false,
      );
    };
    expect(await login('first')).toBe(true);
    await server.addUser({ user: 'carol', password: 'second' });
    expect(await login('first')).toBe(false);
    expect(await login('second')).toBe(true);
  });

  it('runs several instances at once and stops cleanly', async () => {
    const [one, two] = await Promise.all([
      startDovecot({ users: [{ user: 'u1', password: 'p1' }] }),
      startDovecot({ users: [{ user: 'u2', password: 'p2' }] }),
    ]);
    expect(new Set([one.plainPort, one.tlsPort, two.plainPort, two.tlsPort, server.plainPort, server.tlsPort]).size).toBe(6);
    await appendMessage({ server: one, user: 'u1', password: 'p1', raw: 'Subject: one\r\n\r\nx\r\n' });
    await appendMessage({ server: two, user: 'u2', password: 'p2', raw: 'Subject: two\r\n\r\ny\r\n' });
    await one.stop();
    await two.stop();
    await two.stop(); // twice is harmless
    expect(existsSync(one.dir)).toBe(false);
    expect(await portAccepts(one.plainPort)).toBe(false);
    expect(await portAccepts(two.tlsPort)).toBe(false);
  });
});

describe('startSmtpServer', () => {
  const modes: { tls: SmtpTlsMode; secure: boolean; requireTLS: boolean }[] = [
    { tls: 'none', secure: false, requireTLS: false },
    { tls: 'starttls', secure: false, requireTLS: true },
    { tls: 'implicit', secure: true, requireTLS: false },
  ];

  it.each(modes)('requires AUTH and records accepted mail ($tls)', async ({ tls, secure, requireTLS }) => {
    const server = await startSmtpServer({ users: [{ user: 'sender@example.test', password: 'smtp-pass' }], tls });
    try {
      expect(server.secure).toBe(secure);
      const transport = (pass: string) =>
        nodemailer.createTransport({
          host: server.host,
          port: server.port,
          secure,
          requireTLS,
          ignoreTLS: tls === 'none',
          auth: { user: 'sender@example.test', pass },
          tls: server.certPem ? { ca: [server.certPem], servername: 'localhost' } : undefined,
        });
      await expect(transport('nope').verify()).rejects.toMatchObject({ code: 'EAUTH', responseCode: 535 });
      expect(server.failedLogins).toEqual(['sender@example.test']);

      const good = transport('smtp-pass');
      await expect(good.verify()).resolves.toBe(true);
      await good.sendMail({ from: 'sender@example.test', to: ['a@example.test', 'b@example.test'], subject: 'Hello', text: 'Body' });
      const [received] = await server.waitForMessages(1);
      expect(received.user).toBe('sender@example.test');
      expect(received.mailFrom).toBe('sender@example.test');
      expect(received.rcptTo).toEqual(['a@example.test', 'b@example.test']);
      expect(received.raw.toString()).toMatch(/^Subject: Hello\r$/m);
      good.close();
    } finally {
      await server.stop();
    }
  });

  it('survives a client that aborts the TLS handshake', async () => {
    const server = await startSmtpServer({ users: [{ user: 'u', password: 'p' }], tls: 'implicit' });
    try {
      const transport = nodemailer.createTransport({ host: server.host, port: server.port, secure: true, auth: { user: 'u', pass: 'p' } });
      await expect(transport.verify()).rejects.toBeTruthy(); // self-signed: the client hangs up
      const trusting = nodemailer.createTransport({
        host: server.host,
        port: server.port,
        secure: true,
        auth: { user: 'u', pass: 'p' },
        tls: { rejectUnauthorized: false },
      });
      await expect(trusting.verify()).resolves.toBe(true);
    } finally {
      await server.stop();
    }
  });

  it('refuses mail without AUTH', async () => {
    const server = await startSmtpServer({ users: [{ user: 'u', password: 'p' }] });
    try {
      const transport = nodemailer.createTransport({ host: server.host, port: server.port, secure: false, ignoreTLS: true });
      await expect(transport.sendMail({ from: 'x@example.test', to: 'y@example.test', text: 'x' })).rejects.toMatchObject({ responseCode: 530 });
      expect(server.messages).toHaveLength(0);
    } finally {
      await server.stop();
    }
  });
});
