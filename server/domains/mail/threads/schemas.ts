import { z } from 'zod';
import { limitParam } from '../../../core/http/cursor';
import { isoDateTime } from '../../../core/http/schemas';
import { addressSchema, booleanQuery, cursorParam, mailboxIdParam, messageFlagsSchema, messageSummarySchema, qParam } from '../schemas';

export const threadSchema = z
  .object({
    id: z.uuid(),
    mailboxId: z.uuid(),
    subject: z.string().nullable(),
    lastMessageAt: isoDateTime,
    messageCount: z.number().int().min(1),
    unreadCount: z.number().int().min(0),
    participants: z.array(addressSchema).max(3),
    participantCount: z.number().int().min(0),
    snippet: z.string().nullable(),
    hasAttachments: z.boolean(),
    flags: messageFlagsSchema.describe('`seen`: no unread message; `flagged`, `draft`, `sent`: at least one message is.'),
    classification: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'Thread' });

export type ThreadOutput = z.infer<typeof threadSchema>;

export const listThreadsInput = z.object({
  mailboxId: mailboxIdParam,
  cursor: cursorParam,
  limit: limitParam(50, 200),
  q: qParam,
  filter: z.enum(['all', 'unread', 'flagged', 'attachments']).default('all'),
  folder: z
    .string()
    .min(1)
    .max(256)
    .default('inbox')
    .describe('A folder key from GET /api/v1/folders or a role name (`inbox`, `starred`, `sent`, `drafts`, `archive`, `all`, `spam`, `trash`); `all` leaves out trash and spam. An unknown key is 400.'),
  searchEverywhere: booleanQuery('`true`: list (and search) every folder, trash and spam included; `folder` is then ignored.'),
});

export type ListThreadsInput = z.infer<typeof listThreadsInput>;

export const listThreadsOutput = z.object({ threads: z.array(threadSchema), nextCursor: z.string().nullable() });

export const threadIdInput = z.object({ id: z.uuid() });

export const threadDetailOutput = z.object({ thread: threadSchema, messages: z.array(messageSummarySchema) });
