/**
 * The support protocol's wire format, version 1 (docs/support-protocol.md, docs/control-plane.openapi.json): the
 * zod schemas of what the instance sends and of what it accepts back. The client (`./client.ts`) and the fake
 * control plane of the tests (`server/testing/control-plane/`) both read them, so the two cannot drift; the
 * OpenAPI document is checked against them (`protocol.test.ts`).
 *
 * Answers are parsed strictly: a known field of the wrong shape makes the whole answer malformed (a retryable
 * failure, nothing applied); fields the instance does not know are ignored (the operator may add some within v1),
 * and so are change types it does not know.
 */
import { z } from 'zod';
import { SUPPORT_CONVERSATION_STATUSES, SUPPORT_REQUEST_STATUSES } from './store';

export const PROTOCOL_VERSION = '1';

/** Headers of every request (and `Mailflow-Version` on every answer). */
export const protocolHeaders = {
  version: 'mailflow-version',
  instance: 'mailflow-instance',
  timestamp: 'mailflow-timestamp',
  nonce: 'mailflow-nonce',
  signature: 'mailflow-signature',
} as const;

/** Requests whose timestamp is further than this from the operator's clock are refused (`clock_skew`). */
export const SIGNATURE_WINDOW_SECONDS = 300;

/** Bounds shared by both sides. */
export const wireLimits = {
  subject: 160,
  memberBody: 5_000,
  teamBody: 20_000,
  name: 200,
  operatorId: 200,
  cursor: 512,
  changesPerPage: 200,
  /** Largest answer the instance reads, in bytes; a larger one is refused as malformed. */
  answerBytes: 1_048_576,
  changesAnswerBytes: 8 * 1_048_576,
} as const;

const isoDate = z.iso.datetime({ offset: true }).transform((text) => new Date(text));
const operatorId = z.string().min(1).max(wireLimits.operatorId).regex(/^[A-Za-z0-9._:-]+$/);
const uuid = z.uuid();
const author = z.object({ name: z.string().min(1).max(wireLimits.name), memberId: z.string().min(1).max(200).nullable() });

/** `PUT /v1/instances/{instanceId}/threads/{threadId}`: a new thread with its first message. */
export const putThreadBody = z.strictObject({
  kind: z.enum(['request', 'conversation']),
  subject: z.string().min(1).max(wireLimits.subject),
  author,
  createdAt: z.iso.datetime({ offset: true }),
  firstMessage: z.strictObject({
    id: uuid,
    body: z.string().min(1).max(wireLimits.memberBody),
    createdAt: z.iso.datetime({ offset: true }),
  }),
});
export type PutThreadBody = z.infer<typeof putThreadBody>;

/** `PUT /v1/instances/{instanceId}/threads/{threadId}/messages/{messageId}`: a member's message. */
export const putMessageBody = z.strictObject({
  author,
  body: z.string().min(1).max(wireLimits.memberBody),
  createdAt: z.iso.datetime({ offset: true }),
});
export type PutMessageBody = z.infer<typeof putMessageBody>;

/** The answer to both PUTs (200 for a replay of an id it already holds, `duplicate: true`; 201 for a new one). */
export const receiptAnswer = z.object({
  threadId: uuid,
  messageId: uuid,
  receivedAt: isoDate,
  duplicate: z.boolean(),
});
export type ReceiptAnswer = z.infer<typeof receiptAnswer>;

const status = z.enum([...SUPPORT_REQUEST_STATUSES, ...SUPPORT_CONVERSATION_STATUSES]);
const seq = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

export const wireChange = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('team_message'),
    seq,
    threadId: uuid,
    messageId: operatorId,
    authorName: z.string().min(1).max(wireLimits.name),
    body: z.string().min(1).max(wireLimits.teamBody),
    createdAt: isoDate,
  }),
  z.object({ type: z.literal('status'), seq, threadId: uuid, status, at: isoDate }),
  z.object({
    type: z.literal('assignee'),
    seq,
    threadId: uuid,
    assigneeName: z.string().min(1).max(wireLimits.name).nullable(),
    at: isoDate,
  }),
  z.object({ type: z.literal('ack'), seq, threadId: uuid, messageId: uuid, at: isoDate }),
]);
export type WireChange = z.infer<typeof wireChange>;
export const knownChangeTypes: readonly string[] = ['team_message', 'status', 'assignee', 'ack'];

/** `GET /v1/instances/{instanceId}/changes?cursor=&limit=`. Changes of unknown types are skipped by the reader. */
export const changesAnswer = z.object({
  changes: z.array(z.object({ type: z.string().min(1).max(64) }).loose()).max(wireLimits.changesPerPage),
  nextCursor: z.string().min(1).max(wireLimits.cursor),
  hasMore: z.boolean(),
});

const hexColor = z.string().regex(/^#[0-9A-Fa-f]{6}$/).nullable();
const httpsUri = z
  .string()
  .max(2_048)
  .refine((text) => {
    try {
      const url = new URL(text);
      return url.protocol === 'https:' && url.username === '' && url.password === '';
    } catch {
      return false;
    }
  }, 'must be an https URL')
  .nullable();

/** The operator's branding for the instance (every field may be null: the environment's value applies). */
export const wireBranding = z.object({
  name: z.string().min(1).max(120).nullable(),
  logo: z.object({ light: httpsUri, dark: httpsUri }),
  favicon: httpsUri,
  colors: z.object({ primary: hexColor, onPrimary: hexColor, accent: hexColor, onAccent: hexColor }),
  supportUrl: httpsUri,
  poweredBy: z.string().min(1).max(120).nullable(),
  login: z.object({
    welcome: z.object({ en: z.string().min(1).max(1_000), fr: z.string().min(1).max(1_000) }).nullable(),
    image: httpsUri,
  }),
});

/** `GET /v1/instances/{instanceId}/branding`. */
export const brandingAnswer = z.object({ branding: wireBranding.nullable() });

/** The error body of every non-2xx answer (informative only: the instance decides on the status). */
export const errorAnswer = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

export const protocolPaths = {
  thread: (instanceId: string, threadId: string) =>
    `/v1/instances/${encodeURIComponent(instanceId)}/threads/${threadId}`,
  message: (instanceId: string, threadId: string, messageId: string) =>
    `/v1/instances/${encodeURIComponent(instanceId)}/threads/${threadId}/messages/${messageId}`,
  changes: (instanceId: string) => `/v1/instances/${encodeURIComponent(instanceId)}/changes`,
  branding: (instanceId: string) => `/v1/instances/${encodeURIComponent(instanceId)}/branding`,
} as const;
