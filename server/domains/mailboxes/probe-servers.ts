/**
 * Connect's check that both servers accept the member's login, IMAP first, then SMTP (the probes of
 * server/mail, through the network guard). A refusal is the probe's catalogue code with
 * `details: {server, reason, detail}`: which server, a machine tag and a sentence safe to show (the
 * probes never put the password or a resolved address in them).
 */
import { appError } from '../../core/errors/app-error';
import { log } from '../../core/log';
import type { ImapSettings } from '../../mail/imap/mailbox-settings';
import { probeImap } from '../../mail/imap/probe';
import type { ClassifiedFailure, ImapProbeCode, SmtpProbeCode } from '../../mail/probe-errors';
import { probeSmtp } from '../../mail/smtp/probe';
import { allowPrivateHosts } from '../../core/net/network-guard';

export async function probeMailServers(settings: ImapSettings, password: string): Promise<void> {
  const allowPrivate = allowPrivateHosts();
  const common = { username: settings.username, password, allowInvalidCertificate: settings.allowInvalidCertificate, allowPrivate };
  const imap = await probeImap({ ...common, host: settings.imapHost, port: settings.imapPort, secure: settings.imapSecure });
  if (!imap.ok) throw refused('imap', imap);
  const smtp = await probeSmtp({ ...common, host: settings.smtpHost, port: settings.smtpPort, secure: settings.smtpSecure });
  if (!smtp.ok) throw refused('smtp', smtp);
}

function refused(server: 'imap' | 'smtp', failure: ClassifiedFailure<ImapProbeCode | SmtpProbeCode>) {
  log.info({ server, code: failure.code, reason: failure.reason }, 'mailbox connect: a mail server refused');
  return appError(failure.code, { details: { server, reason: failure.reason, detail: failure.detail } });
}
