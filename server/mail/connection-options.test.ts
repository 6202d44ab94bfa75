import { describe, expect, it } from 'vitest';
import { imapConnectionOptions, smtpTransportOptions } from './connection-options';

const endpoint = { host: 'Mail.Example.com.', port: 993, secure: true, allowInvalidCertificate: false };
const credentials = { username: 'alice', password: 'pw' };
const byName = { address: '93.184.216.34', family: 4 as const, addresses: [{ address: '93.184.216.34', family: 4 as const }], literal: false };
const literal = { address: '93.184.216.34', family: 4 as const, addresses: [{ address: '93.184.216.34', family: 4 as const }], literal: true };

describe('mail connection options', () => {
  it('connects imapflow to the checked address and verifies TLS against the typed host name', () => {
    const options = imapConnectionOptions(endpoint, credentials, byName);
    expect(options).toMatchObject({
      host: '93.184.216.34',
      port: 993,
      secure: true,
      servername: 'mail.example.com',
      auth: { user: 'alice', pass: 'pw' },
      tls: { rejectUnauthorized: true, servername: 'mail.example.com' },
      logger: false,
      disableAutoIdle: true,
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 20_000,
    });
    expect(options.proxy).toBeUndefined();
  });

  it('sends no servername for an IP literal and relaxes verification only when asked', () => {
    const options = imapConnectionOptions({ ...endpoint, host: '93.184.216.34', allowInvalidCertificate: true }, credentials, literal, { socketMs: 300_000 }, { qresync: true });
    expect(options.servername).toBeUndefined();
    expect(options.tls).toMatchObject({ rejectUnauthorized: false, servername: undefined });
    expect(options).toMatchObject({ socketTimeout: 300_000, qresync: true });
  });

  it('builds nodemailer options the same way', () => {
    expect(smtpTransportOptions({ ...endpoint, port: 587, secure: false }, credentials, byName)).toMatchObject({
      host: '93.184.216.34',
      port: 587,
      secure: false,
      servername: 'mail.example.com',
      auth: { user: 'alice', pass: 'pw' },
      tls: { rejectUnauthorized: true, servername: 'mail.example.com' },
      logger: false,
    });
  });
});
