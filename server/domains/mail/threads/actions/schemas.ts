import { z } from 'zod';
import { threadActions } from './plan';

const label = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^\p{Cc}]+$/u, 'A label has no control characters.');

export const threadActionInput = z.object({
  id: z.uuid(),
  action: z.enum(threadActions).optional().describe('What to do to the thread; may be left out when only `labels` change.'),
  labels: z
    .object({
      add: z.array(label).max(20).default([]),
      remove: z.array(label).max(20).default([]),
    })
    .optional()
    .describe('Labels to add and remove (at most 20 each, 1-200 characters): on every message, or with an action on the messages it concerns.'),
  folder: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .describe('`move` only: the target folder, a key from GET /api/v1/folders?mailboxId=… or a role name (not `starred` or `all`).'),
  clientToken: z
    .string()
    .min(8)
    .max(128)
    .regex(/^[A-Za-z0-9._:-]+$/)
    .describe('Names this request: the same token again answers the same operations with `duplicate: true` and applies nothing twice.'),
});

export type ThreadActionInput = z.infer<typeof threadActionInput>;

export const threadActionOutput = z.object({
  threadId: z.uuid(),
  ops: z.array(z.object({ messageId: z.uuid(), opId: z.uuid(), duplicate: z.boolean() })),
});
