/**
 * How an IMAP/SMTP mailbox's connection settings are stored: one shape, written by the mailboxes
 * routes (connect, reconnect) and read by the runner's sync, so the two never drift.
 *
 * - `Mailbox.settings` (JSON, not secret): {imapHost, imapPort, imapSecure, smtpHost, smtpPort,
 *   smtpSecure, username, allowInvalidCertificate}. `username` is the login (the address when the
 *   member gave none).
 * - The password lives in a `Credential` row of type `imap` (`Mailbox.credentialId`), sealed as
 *   `sealJson({password}, 'credential:<credential id>')`; it is opened only where a connection is made.
 */
import { z } from 'zod';
import { openJson, sealJson } from '../../core/crypto/secret-box';

export const imapSettingsSchema = z.object({
  imapHost: z.string().min(1).max(255),
  imapPort: z.number().int().min(1).max(65535).default(993),
  imapSecure: z.boolean().default(true),
  smtpHost: z.string().min(1).max(255),
  smtpPort: z.number().int().min(1).max(65535).default(465),
  smtpSecure: z.boolean().default(true),
  username: z.string().min(1).max(255),
  allowInvalidCertificate: z.boolean().default(false),
});

export type ImapSettings = z.infer<typeof imapSettingsSchema>;

/** Stored secret of an `imap` credential. */
export const imapSecretSchema = z.object({ password: z.string().min(1).max(1024) });
export type ImapSecret = z.infer<typeof imapSecretSchema>;

/** The credential type of an IMAP/SMTP password. */
export const imapCredentialType = 'imap';

export function credentialPurpose(credentialId: string): string {
  return `credential:${credentialId}`;
}

/** The settings of an IMAP mailbox; throws (naming no value) when they are missing or malformed. */
export function imapSettingsOf(mailbox: { settings: unknown }): ImapSettings {
  const parsed = imapSettingsSchema.safeParse(mailbox.settings);
  if (!parsed.success) throw new Error('mailbox settings: not a valid IMAP/SMTP settings object');
  return parsed.data;
}

/** The sealed text of an IMAP password for the credential row `credentialId` (its `dataEnc`). */
export function sealImapPassword(credentialId: string, password: string): string {
  return sealJson({ password } satisfies ImapSecret, credentialPurpose(credentialId));
}

/** The password of an `imap` credential. Throws without any of the secret in the message. */
export function openImapPassword(credential: { id: string; dataEnc: string }): string {
  const parsed = imapSecretSchema.safeParse(openJson(credential.dataEnc, credentialPurpose(credential.id)));
  if (!parsed.success) throw new Error('imap credential: sealed value is not {password}');
  return parsed.data.password;
}
