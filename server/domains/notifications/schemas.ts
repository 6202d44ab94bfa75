import { z } from 'zod';
import { limitParam } from '../../core/http/cursor';
import { isoDateTime } from '../../core/http/schemas';

export const notificationSchema = z
  .object({
    id: z.uuid(),
    kind: z.string().describe('`execution.failed`, `mailbox.error`, `mailbox.recovered`, `mailbox.stalled`, `mailbox.removed`, `approval.pending`, `workflow.notice`, `send.held`, …'),
    severity: z.enum(['info', 'warning', 'error']),
    params: z.record(z.string(), z.unknown()).describe('The kind’s parameters (see Events).'),
    link: z.string().nullable().describe('An in-app path, or null.'),
    createdAt: isoDateTime,
    readAt: isoDateTime.nullable(),
  })
  .meta({ id: 'Notification' });

export type NotificationOutput = z.infer<typeof notificationSchema>;

export const listNotificationsInput = z.object({
  unread: z.enum(['true', 'false']).optional().describe('`true` keeps unread notifications only.'),
  cursor: z.string().max(500).optional(),
  limit: limitParam(30, 100),
});

export type ListNotificationsQuery = z.infer<typeof listNotificationsInput>;

const unreadCount = z.number().int().min(0).describe('Unread, not archived notifications of the member (whatever the filter).');

export const notificationPageOutput = z.object({
  items: z.array(notificationSchema),
  nextCursor: z.string().nullable(),
  unreadCount,
});

export const notificationOutput = z.object({ notification: notificationSchema, unreadCount });

export const readAllOutput = z.object({ updated: z.number().int().min(0).describe('Notifications marked read by this call.'), unreadCount });

export const archiveOutput = z.object({ id: z.uuid(), archived: z.literal(true), unreadCount });
