/**
 * Checks that an SMTP server accepts a member's credentials before anything is stored: the network
 * guard, connect (TLS or STARTTLS when offered), EHLO, AUTH, QUIT (nodemailer's `verify()`). Never
 * throws: `{ ok: true }` or a catalogue code (`smtp.host_not_found | unreachable | tls_failed |
 * auth_failed`) with a detail safe to show (never the password, never the resolved address).
 */
import type { LookupAddress } from 'node:dns';
import nodemailer from 'nodemailer';
import type { ResolvedAddress } from '../../core/net/network-guard';
import { resolveMailServer, smtpTransportOptions, type MailCredentials, type MailServerEndpoint, type MailTimeouts } from '../connection-options';
import { probeTimeoutError, type ProbeResult, type SmtpProbeCode } from '../probe-errors';
import { withDeadline } from '../with-deadline';
import { classifySmtpError } from './classify-smtp-error';

export interface SmtpProbeInput extends MailServerEndpoint, MailCredentials {
  /** MAIL_ALLOW_PRIVATE_HOSTS of the instance (allowPrivateHosts()). */
  allowPrivate: boolean;
  timeouts?: MailTimeouts & { totalMs?: number };
  /** DNS for tests; the system resolver otherwise. */
  lookup?: (host: string) => Promise<LookupAddress[]>;
}

export type SmtpProbeResult = ProbeResult<SmtpProbeCode>;

export async function probeSmtp(input: SmtpProbeInput): Promise<SmtpProbeResult> {
  let resolved: ResolvedAddress | null = null;
  let transport: ReturnType<typeof nodemailer.createTransport> | null = null;
  const attempt = async () => {
    resolved = await resolveMailServer(input.host, { allowPrivate: input.allowPrivate, lookup: input.lookup });
    transport = nodemailer.createTransport(smtpTransportOptions(input, input, resolved, input.timeouts));
    await transport.verify();
  };
  try {
    await withDeadline(attempt(), input.timeouts?.totalMs ?? 20_000, () => closeQuietly(transport), probeTimeoutError);
    return { ok: true };
  } catch (error) {
    const hide = [input.password, (resolved as ResolvedAddress | null)?.address];
    return { ok: false, ...classifySmtpError(error, { hide }) };
  } finally {
    closeQuietly(transport);
  }
}

function closeQuietly(transport: { close(): void } | null): void {
  try {
    transport?.close();
  } catch {
    // already closed
  }
}
