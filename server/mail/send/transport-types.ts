/**
 * What every provider's transport takes and answers: the mailbox, the built message, the result. Its own
 * module so that the per-provider transports (./smtp-transport.ts) and the dispatcher (./transport.ts),
 * which calls them, do not import each other.
 */
export interface TransportMailbox {
  id: string;
  provider: string;
  address: string;
  settings: unknown;
  credential: { id: string; dataEnc: string } | null;
}

export interface OutgoingMessage {
  /** Envelope sender (the mailbox's address). */
  from: string;
  /** Envelope recipients: To, Cc and Bcc. */
  recipients: string[];
  /** What SMTP delivers (no Bcc header). */
  raw: Buffer;
  /** The copy with its Bcc header: the Sent folder's, and what a provider API is given. */
  sentCopy: Buffer;
  /** The provider's thread to file the message in (Gmail), when known. */
  providerThreadId?: string | null;
  /** The Message-ID (Graph gives no id of its own). */
  messageIdHeader: string;
}

export interface SendResult {
  providerMessageId: string | null;
  /** Things the member should know that did not fail the send (a Sent copy not saved, refused recipients). */
  warnings: string[];
  /** Work after the send is recorded (the Sent copy over IMAP); answers a warning or null. Never throws. */
  followUp?: () => Promise<string | null>;
}
