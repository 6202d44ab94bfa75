/**
 * What an answer to a message starts with (reply, reply all, forward): its recipients, subject,
 * quoted text and, for a forward, the original's attachments. Pure: the webmail's reply-context
 * route and the workflow nodes (mail.draft, mail.send) both derive their defaults here.
 */
import { uniqueAddresses } from '../../mail/addresses';

// The address grammar is the mail kernel's (server/mail/addresses.ts); answers and the workflow nodes share it.
export { isAddress, parseAddressList, uniqueAddresses } from '../../mail/addresses';

export type AnswerMode = 'reply' | 'replyAll' | 'forward';

export interface Address {
  name?: string;
  email: string;
}

export interface OriginalMessage {
  id: string;
  subject: string | null;
  fromName: string | null;
  fromEmail: string | null;
  dateHeader: string | null;
  receivedAt: Date;
  bodyText: string | null;
  recipients: { to: Address[]; cc: Address[]; replyTo: Address[] };
  attachments: { position: number; filename: string; mime: string; size: number }[];
}

export interface AnswerContext {
  to: string[];
  cc: string[];
  subject: string;
  quotedText: string;
  attachments: { messageId: string; position: number; filename: string; mime: string; size: number }[];
}

/** The longest quoted text (the compose body is bounded to 200,000 characters). */
export const maxQuotedChars = 100_000;

const lower = (email: string) => email.trim().toLowerCase();



/** `Re: subject` / `Fwd: subject`, without stacking prefixes already there. */
export function answerSubject(subject: string | null, mode: AnswerMode): string {
  const base = (subject ?? '').trim();
  if (mode === 'forward') return /^(fwd?|tr)\s*:/i.test(base) ? base : `Fwd: ${base}`.trim();
  return /^(re|aw|sv)\s*:/i.test(base) ? base : `Re: ${base}`.trim();
}

function clip(text: string): string {
  return text.length > maxQuotedChars ? `${text.slice(0, maxQuotedChars)}\n[…]` : text;
}

function sender(message: OriginalMessage): string {
  if (!message.fromEmail) return message.fromName ?? '';
  return message.fromName ? `${message.fromName} <${message.fromEmail}>` : message.fromEmail;
}

export function answerContext(message: OriginalMessage, mailboxAddress: string, mode: AnswerMode): AnswerContext {
  const self = [mailboxAddress];
  const replyTarget = message.recipients.replyTo.length > 0 ? message.recipients.replyTo.map((a) => a.email) : message.fromEmail ? [message.fromEmail] : [];
  const date = message.dateHeader ?? message.receivedAt.toUTCString();
  const body = message.bodyText ?? '';
  if (mode === 'forward') {
    const header = [
      '---------- Forwarded message ----------',
      `From: ${sender(message)}`,
      `Date: ${date}`,
      `Subject: ${message.subject ?? ''}`,
      `To: ${message.recipients.to.map((a) => a.email).join(', ')}`,
      ...(message.recipients.cc.length ? [`Cc: ${message.recipients.cc.map((a) => a.email).join(', ')}`] : []),
    ].join('\n');
    return {
      to: [],
      cc: [],
      subject: answerSubject(message.subject, 'forward'),
      quotedText: clip(`\n\n${header}\n\n${body}`),
      attachments: message.attachments.map((attachment) => ({ messageId: message.id, ...attachment })),
    };
  }
  // Answering one's own sent message goes to its recipients rather than back to oneself.
  const fromSelf = message.fromEmail !== null && lower(message.fromEmail) === lower(mailboxAddress);
  const to = uniqueAddresses(fromSelf ? message.recipients.to.map((a) => a.email) : replyTarget, self);
  const cc =
    mode === 'replyAll'
      ? uniqueAddresses([...(fromSelf ? [] : message.recipients.to.map((a) => a.email)), ...message.recipients.cc.map((a) => a.email)], [...self, ...to])
      : [];
  const quoted = body
    .split(/\r?\n/)
    .map((line) => `> ${line}`)
    .join('\n');
  return {
    to: to.length > 0 ? to : uniqueAddresses(replyTarget),
    cc,
    subject: answerSubject(message.subject, mode),
    quotedText: clip(`\n\nOn ${date}, ${sender(message)} wrote:\n${quoted}`),
    attachments: [],
  };
}



