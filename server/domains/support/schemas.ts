/**
 * Support threads with the team operating the instance: the routes' input and output schemas (spec,
 * Resources → Support thread; Endpoints → Support requests to the team).
 */
import { z } from 'zod';
import { SUPPORT_CONVERSATION_STATUSES, SUPPORT_REQUEST_STATUSES } from './sync/store';

/** Bounds of what a member writes (after trimming), and of the list. */
export const supportBounds = { subject: 160, body: 5_000, listMax: 200 } as const;

export const threadKinds = ['request', 'conversation'] as const;
export const threadStatuses = [...SUPPORT_REQUEST_STATUSES, ...SUPPORT_CONVERSATION_STATUSES] as const;

const subject = z.string().trim().min(1).max(supportBounds.subject);
const body = z.string().trim().min(1).max(supportBounds.body);
/** Any string: a malformed id is "not found" (404 `support.not_found`), as for every id of the API. */
const threadId = z.string();

export const threadIdParam = z.strictObject({ id: threadId });
export const createRequestInput = z.strictObject({
  title: subject.describe('The request’s title, 1-160 characters (trimmed).'),
  need: body.describe('What is needed, 1-5,000 characters (trimmed); the thread’s first message.'),
});
export const createConversationInput = z.strictObject({ subject: subject.describe('1-160 characters (trimmed).'), body: body.describe('The first message, 1-5,000 characters (trimmed).') });
export const postMessageInput = z.strictObject({ id: threadId, body: body.describe('1-5,000 characters (trimmed).') });

export type CreateRequestInput = z.infer<typeof createRequestInput>;
export type CreateConversationInput = z.infer<typeof createConversationInput>;
export type PostMessageInput = z.infer<typeof postMessageInput>;

const threadFields = {
  id: z.uuid(),
  kind: z.enum(threadKinds),
  subject: z.string(),
  status: z.enum(threadStatuses).describe('A request: `received`, `in_study`, `quoted`, `in_progress`, `delivered`, `rejected`; a conversation: `open`, `closed`.'),
  assigneeName: z.string().nullable(),
  authorName: z.string(),
  authorMemberId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string().describe('The last activity: a message, a status or assignee change.'),
  lastMessageAt: z.string(),
  messageCount: z.number().int().min(0),
  unread: z.boolean().describe('A team message arrived after you last read the thread (yours alone: another reader’s reading does not count).'),
  pending: z.boolean().describe('Some message of the thread (its first one included) is not delivered to the team yet.'),
};

export const threadSummarySchema = z.object(threadFields).meta({ id: 'SupportThreadSummary' });

export const supportMessageSchema = z
  .object({
    id: z.uuid(),
    direction: z.enum(['member', 'team']),
    authorName: z.string(),
    body: z.string(),
    createdAt: z.string(),
    pending: z.boolean().describe('A member’s message not delivered to the team yet.'),
  })
  .meta({ id: 'SupportMessage' });

export const threadSchema = z.object({ ...threadFields, messages: z.array(supportMessageSchema) }).meta({ id: 'SupportThread' });

export const supportOverviewSchema = z
  .object({
    linked: z.boolean().describe('The instance is linked to its operator’s control plane; when false, writes answer 409 `support.not_linked`.'),
    threads: z.array(threadSummarySchema),
    unreadCount: z.number().int().min(0),
    syncedAt: z.string().nullable().describe('The last successful exchange with the control plane (null: never).'),
  })
  .meta({ id: 'SupportOverview' });

export type ThreadSummaryOutput = z.infer<typeof threadSummarySchema>;
export type ThreadOutput = z.infer<typeof threadSchema>;
export type SupportOverviewOutput = z.infer<typeof supportOverviewSchema>;
