/**
 * Bounds of what one message may put in the mirror. A message is hostile input: every part of it is
 * cut to these sizes at ingest, and `bodyComplete` says when something was cut (the full content is
 * then fetched from the server on demand, server/mail/content.ts).
 */
export const ingestLimits = {
  /** Characters of `bodyText` kept (1 MiB of text). */
  textChars: 1024 * 1024,
  /** Characters of the raw HTML kept (2 MiB); it is sanitised on read. */
  htmlChars: 2 * 1024 * 1024,
  /** Characters of the snippet. */
  snippetChars: 200,
  /** Characters of the subject and of a display name. */
  subjectChars: 998,
  nameChars: 256,
  /** An address longer than this is not an address (RFC 5321 path limit). */
  addressChars: 320,
  /** Addresses kept per recipient list (to, cc, reply-to). */
  recipientsPerList: 100,
  /** Characters of a Message-ID; longer ones are dropped (they cannot thread anything real). */
  messageIdChars: 500,
  /** References kept: the first (the thread's root) and the last ones (the closest parents). */
  references: 100,
  /** Characters of the raw Date header kept. */
  dateHeaderChars: 200,
  /** Header values read for signals: characters per value and values per name. */
  headerValueChars: 1000,
  headerValuesPerName: 20,
  /** Attachment rows per message; MIME parts beyond are not listed (the message says bodyComplete false). */
  attachments: 1000,
  filenameChars: 255,
  mimeChars: 255,
  contentIdChars: 500,
  /** Bytes of one attachment's content stored at ingest; larger ones are fetched on demand. */
  attachmentBytes: 25 * 1024 * 1024,
  /** Bytes of all attachment content of one message stored at ingest. */
  attachmentBytesPerMessage: 50 * 1024 * 1024,
  /** MIME parts the parser accepts (mailsplit's own default is 1,000). */
  mimeNodes: 5000,
  /** Bytes of one part's header block (mailsplit's default: 1 MiB). */
  headBytes: 1024 * 1024,
} as const;
