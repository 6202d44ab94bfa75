/**
 * What the Support section's component tests share: threads and messages as the server answers them, and the
 * signed-in member. (The router they hand to the harness is `fakeRouter` from app/testing/render-with-trpc.tsx.)
 */
import type { SupportMessage, SupportOverview, SupportThread, SupportThreadSummary } from '../_lib/api';

export const memberId = '00000000-0000-4000-8000-000000000001';
export const otherMemberId = '00000000-0000-4000-8000-000000000002';
export const at = '2026-12-01T10:00:00.000Z';

export const me = (role: 'admin' | 'member') => ({ member: { id: memberId, email: 'sam@example.com', name: 'Sam Member', role, status: 'active' } });

let next = 0;
export function threadId(): string {
  next += 1;
  return `00000000-0000-4000-8000-${String(next).padStart(12, '0')}`;
}

export function summary(fields: Partial<SupportThreadSummary> = {}): SupportThreadSummary {
  return {
    id: threadId(),
    kind: 'request',
    subject: 'Import our invoices',
    status: 'received',
    assigneeName: null,
    authorName: 'Sam Member',
    authorMemberId: memberId,
    createdAt: at,
    updatedAt: at,
    lastMessageAt: at,
    messageCount: 1,
    unread: false,
    pending: false,
    ...fields,
  };
}

export function message(fields: Partial<SupportMessage> = {}): SupportMessage {
  return { id: threadId(), direction: 'member', authorName: 'Sam Member', body: 'Hello', createdAt: at, pending: false, ...fields };
}

export function thread(fields: Partial<SupportThread> = {}): SupportThread {
  const messages = fields.messages ?? [message()];
  return { ...summary(), messageCount: messages.length, ...fields, messages };
}

export function overview(threads: SupportThreadSummary[], fields: Partial<SupportOverview> = {}): SupportOverview {
  return { linked: true, threads, unreadCount: threads.filter((item) => item.unread).length, syncedAt: at, ...fields };
}
