/** Placeholder until h-mailtest's probes land (replaced at merge). */
import type { ImapSettings } from '../../core/mail/imap/mailbox-settings';

export async function probeMailServers(_settings: ImapSettings, _password: string): Promise<void> {
  throw new Error('probes not wired yet');
}
