/**
 * What each provider's mailbox can do that the webmail asks about. Permanent deletion: IMAP
 * (flag \Deleted then EXPUNGE) and the Graph-compatible provider (`permanentDelete`) can; the
 * Gmail-compatible provider's delete needs the full-mail scope the service does not ask for, so its
 * mailboxes can only move to trash.
 */
const permanentDelete: ReadonlyMap<string, boolean> = new Map([
  ['imap', true],
  ['mail_provider_a', false],
  ['mail_provider_b', true],
]);

export function canDeletePermanently(provider: string): boolean {
  return permanentDelete.get(provider) ?? false;
}
