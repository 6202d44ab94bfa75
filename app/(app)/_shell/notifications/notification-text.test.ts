import { describe, expect, it } from 'vitest';
import { en } from '@/app/i18n/en';
import { fr } from '@/app/i18n/fr';
import type { AppNotification } from '@/app/lib/mail-types';
import { inAppPath, notificationText } from './notification-text';

const base: AppNotification = { id: 'n1', kind: 'mailbox.error', severity: 'error', params: {}, link: null, createdAt: '2026-01-01T00:00:00.000Z', readAt: null };

describe('notification texts', () => {
  it('says each kind with its params, in both languages', () => {
    const error = { ...base, params: { mailboxId: 'm', address: 'a@example.test', kind: 'auth' } };
    expect(notificationText(error, en)).toMatchObject({ title: 'a@example.test stopped syncing', href: '/settings/mailboxes' });
    expect(notificationText(error, en).body).toContain('refused the sign-in');
    expect(notificationText(error, fr).title).toBe('a@example.test ne se synchronise plus');
    const removed = { ...base, kind: 'mailbox.removed', params: { address: 'a@example.test', mode: 'deleted', unpublishedWorkflows: 2 } };
    expect(notificationText(removed, en)).toMatchObject({ title: 'a@example.test was deleted', body: '2 workflows were unpublished.' });
    const failed = { ...base, kind: 'execution.failed', params: { workflowName: 'Invoices', errorSummary: 'HTTP 500' } };
    expect(notificationText(failed, en)).toMatchObject({ title: 'Workflow “Invoices” failed', body: 'HTTP 500', href: '/executions' });
    const approval = { ...base, kind: 'approval.pending', params: { workflowName: 'Refunds', subject: null } };
    expect(notificationText(approval, fr)).toMatchObject({ body: null, href: '/approvals' });
    const notice = { ...base, kind: 'workflow.notice', params: { workflowId: 'w1', workflowName: 'Leads', executionId: 'e1', title: 'New lead', body: 'From ACME' } };
    expect(notificationText(notice, en)).toMatchObject({ title: 'Leads: New lead', body: 'From ACME', href: '/executions/e1' });
    expect(notificationText(notice, fr).title).toBe('Leads\u00a0: New lead');
    const stalled = { ...base, kind: 'mailbox.stalled', severity: 'warning' as const, params: { mailboxId: 'm', address: 'a@example.test', reason: 'watch_silent' } };
    expect(notificationText(stalled, en)).toMatchObject({ title: 'a@example.test went silent', href: '/settings/mailboxes' });
    expect(notificationText(stalled, en).body).toContain('stopped answering');
    expect(notificationText(stalled, fr).title).toBe('a@example.test ne donne plus signe de vie');
    expect(notificationText({ ...stalled, params: { address: 'a@example.test', reason: 'later' } }, en).body).toBe(en.notifications.kinds.mailboxStalledOther);
    expect(notificationText({ ...base, kind: 'something.new' }, en)).toMatchObject({ title: 'New notification', href: null });
  });

  it('says a support reply with its author and subject, and leads to the thread', () => {
    const reply = { ...base, kind: 'support.reply', severity: 'info' as const, params: { threadId: 't 1', subject: 'Import our invoices', authorName: 'Dana' }, link: '/support/t1' };
    expect(notificationText(reply, en)).toEqual({ title: 'New reply from Dana on “Import our invoices”', body: null, href: '/support/t1' });
    expect(notificationText(reply, fr).title).toBe('Nouvelle réponse de Dana sur «\u00a0Import our invoices\u00a0»');
    // Without its own link, the thread's page from the params.
    expect(notificationText({ ...reply, link: null }, en).href).toBe('/support/t%201');
    expect(notificationText({ ...reply, link: null, params: { subject: 'x', authorName: 'Dana' } }, en).href).toBe('/support');
  });

  it('follows only links inside the application', () => {
    expect(inAppPath('/settings/mailboxes')).toBe('/settings/mailboxes');
    expect(inAppPath('https://evil.example/')).toBeNull();
    expect(inAppPath('//evil.example/')).toBeNull();
    expect(inAppPath('/\\evil.example')).toBeNull();
    expect(inAppPath('javascript:alert(1)')).toBeNull();
    expect(notificationText({ ...base, link: '//evil.example' }, en).href).toBe('/settings/mailboxes');
  });
});
