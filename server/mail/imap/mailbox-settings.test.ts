import { beforeAll, describe, expect, it } from 'vitest';
import { imapSettingsOf, openImapPassword, sealImapPassword } from './mailbox-settings';

beforeAll(() => {
  process.env.ENCRYPTION_KEY ??= 'test-key-test-key-test-key-test-key-0123';
});

describe('imap mailbox settings', () => {
  it('applies the spec defaults and refuses a malformed object without echoing it', () => {
    const settings = imapSettingsOf({ settings: { imapHost: 'imap.example.test', smtpHost: 'smtp.example.test', username: 'me@example.test' } });
    expect(settings).toEqual({
      imapHost: 'imap.example.test',
      imapPort: 993,
      imapSecure: true,
      smtpHost: 'smtp.example.test',
      smtpPort: 465,
      smtpSecure: true,
      username: 'me@example.test',
      allowInvalidCertificate: false,
    });
    expect(() => imapSettingsOf({ settings: { imapHost: 'secret-host' } })).toThrow(/^mailbox settings: not a valid/);
    expect(() => imapSettingsOf({ settings: null })).toThrow();
  });

  it('seals a password bound to its credential id', () => {
    const dataEnc = sealImapPassword('11111111-1111-4111-8111-111111111111', 'hunter2-password');
    expect(dataEnc).not.toContain('hunter2');
    expect(openImapPassword({ id: '11111111-1111-4111-8111-111111111111', dataEnc })).toBe('hunter2-password');
    expect(() => openImapPassword({ id: '22222222-2222-4222-8222-222222222222', dataEnc })).toThrow(/does not open/);
  });
});
