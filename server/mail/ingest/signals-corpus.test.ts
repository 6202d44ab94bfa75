/**
 * Every signal against a corpus of real-world messages (server/testing/mail-corpus): each message
 * goes through `ingestMessage`, the function the mirror ingests with, and gets exactly the signals a
 * person would give it. One row per message, listing the signals that are true; every other signal
 * must be false.
 */
import { describe, expect, it } from 'vitest';
import { corpusMailbox, corpusMessage, corpusNames } from '../../testing/mail-corpus';
import { ingestMessage } from './ingest';
import type { MessageSignals } from './signals';

type Signal = keyof MessageSignals;

const none: Signal[] = [];

const expected: Record<string, Signal[]> = {
  // Newsletters: a one-way list, mass mail. Never an auto-reply, whatever their Precedence says.
  'mailchimp-newsletter': ['isMailingList', 'isBulk'],
  'sendgrid-newsletter': ['isMailingList', 'isBulk'],
  'amazon-ses-newsletter': ['isMailingList', 'isBulk'],
  'substack-newsletter': ['isMailingList', 'isBulk'],
  'hubspot-newsletter': ['isMailingList', 'isBulk'],
  'salesforce-marketing-cloud-newsletter': ['isMailingList', 'isBulk'],
  // Out-of-office and vacation replies: auto-replies, not bulk mail although most say `Precedence: bulk`.
  'exchange-online-automatic-reply': ['isAutoReply'],
  'exchange-2010-out-of-office': ['isAutoReply'],
  'outlook-com-automatic-reply': ['isAutoReply'],
  'gmail-vacation-responder': ['isAutoReply'],
  'dovecot-sieve-vacation': ['isAutoReply'],
  'postfix-vacation-program': ['isAutoReply'],
  'zimbra-out-of-office': ['isAutoReply'],
  // Bounces and read receipts: delivery reports (a bounce's MAILER-DAEMON or postmaster is also a no-reply sender).
  'postfix-bounce': ['isDeliveryReport', 'isNoReply'],
  'exim-bounce': ['isDeliveryReport', 'isNoReply'],
  'exchange-ndr': ['isDeliveryReport', 'isNoReply'],
  'gmail-bounce': ['isDeliveryReport', 'isNoReply'],
  'qmail-failure-notice': ['isDeliveryReport', 'isNoReply'],
  'mdn-read-receipt': ['isDeliveryReport'],
  // Calendar: invitations and an attendee's answer.
  'google-calendar-invitation': ['isCalendar'],
  'outlook-meeting-request': ['isCalendar'],
  'outlook-meeting-accepted': ['isCalendar'],
  // Ticketing and code review: Jira's notices are machine-written; a Zendesk agent's answer and a
  // GitHub comment are a person's words (GitHub relays them as a list one can answer).
  'jira-notification': ['isAutoReply'],
  'zendesk-agent-reply': none,
  'github-notification': ['isMailingList'],
  // People.
  'personal-mail': none,
  'reply-in-thread': none,
  'forwarded-by-exchange-rule': none,
  'mailman-list-reply': ['isMailingList'],
  'google-groups-reply': ['isMailingList'],
  // Shops and suppliers.
  'no-reply-receipt': ['isNoReply'],
  'invoice-with-pdf': none,
  // The mailbox writing to itself.
  'sent-by-the-mailbox-itself': ['isFromSelf'],
};

const allSignals: Signal[] = ['isAutoReply', 'isNoReply', 'isMailingList', 'isFromSelf', 'isBulk', 'isDeliveryReport', 'isCalendar'];

const signalsFrom = (present: Signal[]): MessageSignals =>
  Object.fromEntries(allSignals.map((signal) => [signal, present.includes(signal)])) as unknown as MessageSignals;

describe('signals on the real-world corpus', () => {
  it('has a row for every message of the corpus, and a message for every row', () => {
    expect(Object.keys(expected).sort()).toEqual(corpusNames());
  });

  it.each(Object.entries(expected))('%s gets exactly %j', async (name, present) => {
    const ingested = await ingestMessage(corpusMessage(name), { mailboxAddress: corpusMailbox, mode: 'full' });
    expect(ingested.signals).toEqual(signalsFrom(present));
  });

  it('reads the list id of the lists and newsletters that carry one', async () => {
    const listIds = await Promise.all(
      ['mailchimp-newsletter', 'substack-newsletter', 'github-notification', 'mailman-list-reply', 'google-groups-reply'].map(
        async (name) => (await ingestMessage(corpusMessage(name), { mailboxAddress: corpusMailbox, mode: 'processing_only' })).listId,
      ),
    );
    expect(listIds).toEqual([
      'c4a2f1b7e0d3a9b8c7f6e5d4.987654.list-id.mcsv.net',
      'slowtype.substack.com',
      'site.atelier-lumiere.github.com',
      'typo-discuss.lists.typographes.example',
      'graphistes-independants.googlegroups.com',
    ]);
  });
});
