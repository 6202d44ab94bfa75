/**
 * Links into the webmail from elsewhere (the journal, a run's page): a message opened in its
 * conversation. The keys are the ones use-webmail-route.ts reads.
 */
export function conversationHref(mailboxId: string, threadId: string): string {
  return `/messages?${new URLSearchParams({ mailbox: mailboxId, thread: threadId }).toString()}`;
}
