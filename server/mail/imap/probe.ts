/**
 * Checks that an IMAP server accepts a member's credentials before anything is stored: the network
 * guard, connect (TLS or STARTTLS as configured), log in, log out. Never throws: the answer is
 * `{ ok: true }` or a catalogue code (`imap.host_not_found | unreachable | tls_failed | auth_failed`)
 * with a detail safe to show (never the password, never the address the host resolved to).
 */
import { ImapFlow } from 'imapflow';
import type { LookupAddress } from 'node:dns';
import type { ResolvedAddress } from '../../core/net/network-guard';
import { imapConnectionOptions, resolveMailServer, type MailCredentials, type MailServerEndpoint, type MailTimeouts } from '../connection-options';
import { probeTimeoutError, type ImapProbeCode, type ProbeResult } from '../probe-errors';
import { withDeadline } from '../with-deadline';
import { classifyImapError } from './classify-imap-error';

export interface ImapProbeInput extends MailServerEndpoint, MailCredentials {
  /** MAIL_ALLOW_PRIVATE_HOSTS of the instance (allowPrivateHosts()). */
  allowPrivate: boolean;
  timeouts?: MailTimeouts & { totalMs?: number };
  /** DNS for tests; the system resolver otherwise. */
  lookup?: (host: string) => Promise<LookupAddress[]>;
}

export type ImapProbeResult = ProbeResult<ImapProbeCode>;

export async function probeImap(input: ImapProbeInput): Promise<ImapProbeResult> {
  let resolved: ResolvedAddress | null = null;
  let client: ImapFlow | null = null;
  const attempt = async () => {
    resolved = await resolveMailServer(input.host, { allowPrivate: input.allowPrivate, lookup: input.lookup });
    client = new ImapFlow(
      imapConnectionOptions(input, input, resolved, input.timeouts, {
        clientInfo: { name: 'mailflow' },
      }),
    );
    // Failures reach us through connect(); an 'error' event without a listener would crash the process.
    client.on('error', () => {});
    await client.connect();
    try {
      await client.logout();
    } catch {
      client.close(); // logged in is what we wanted to know
    }
  };
  try {
    await withDeadline(attempt(), input.timeouts?.totalMs ?? 20_000, () => (client as ImapFlow | null)?.close(), probeTimeoutError);
    return { ok: true };
  } catch (error) {
    (client as ImapFlow | null)?.close();
    const hide = [input.password, (resolved as ResolvedAddress | null)?.address];
    return { ok: false, ...classifyImapError(error, { hide }) };
  }
}
