import { describe, expect, it } from 'vitest';
import { en } from '@/app/i18n/en';
import { fr } from '@/app/i18n/fr';
import type { AppNotification } from '@/app/lib/mail-types';
import { notificationText } from '../_shell/notifications/notification-text';
import { holdText } from './hold-text';

describe('send hold texts', () => {
  it('say the reason and why, in both languages', () => {
    const cap = { reason: 'mailbox_hourly_cap' as const, mailboxAddress: 'me@x.test', workflowName: null, details: { sends: 200, limit: 200, windowMinutes: 60 } };
    expect(holdText(cap, en)).toEqual({ title: 'Hourly sending limit of the mailbox reached', why: 'me@x.test sent 200 messages within an hour; further sends wait for you.' });
    expect(holdText(cap, fr).why).toBe('me@x.test a envoyé 200 messages en une heure\u00a0; les envois suivants vous attendent.');
    const loop = { reason: 'auto_reply_loop' as const, mailboxAddress: 'me@x.test', workflowName: 'Auto', details: { counterpart: 'bot@y.test', sends: 2, limit: 2, windowMinutes: 10 } };
    expect(holdText(loop, en).why).toContain('bot@y.test (2 sends within 10 minutes)');
    const repeat = { reason: 'repeat_recipient' as const, mailboxAddress: null, workflowName: 'Leads', details: { recipient: 'a@y.test', limit: 3 } };
    expect(holdText(repeat, en).why).toBe('“Leads” wrote to a@y.test 3 times within an hour; it is paused.');
  });

  it('the send.held notification', () => {
    const base: AppNotification = { id: 'n', kind: 'send.held', severity: 'warning', params: {}, link: '/review', createdAt: '2026-01-01T00:00:00.000Z', readAt: null };
    const workflow = { ...base, params: { holdId: 'h', reason: 'workflow_hourly_cap', mailboxAddress: 'me@x.test', workflowName: 'Digest', heldCount: 1 } };
    expect(notificationText(workflow, en)).toEqual({
      title: 'Sends of “Digest” are on hold: hourly limit reached',
      body: '1 message is held, nothing was sent or dropped. The workflow is paused. Review and release the hold to send them.',
      href: '/review',
    });
    const mailbox = { ...base, params: { holdId: 'h', reason: 'mailbox_hourly_cap', mailboxAddress: 'me@x.test', heldCount: 3 } };
    expect(notificationText(mailbox, fr).title).toBe('Envois de me@x.test retenus\u00a0: limite horaire atteinte');
  });
});
