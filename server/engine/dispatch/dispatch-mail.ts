/**
 * New mail to workflows: each message of mail_dispatch_queue gets its journal entry and starts the
 * matching workflows (being written).
 */
export async function dispatchNewMail(_mailboxId: string): Promise<void> {
  // Implemented with the mail dispatch.
}
