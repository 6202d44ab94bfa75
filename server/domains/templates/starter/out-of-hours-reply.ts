/** Mail received on weekends or outside 9:00-18:00: a reply saying when you will answer, reviewed first. */
import { at, setUpNote, type StarterTemplate } from './types';

const part = (which: 'Before' | 'After') => `{{ $number($substring${which}(nodes.received.formatted, "-")) }}`;

export const outOfHoursReply: StarterTemplate = {
  slug: 'out-of-hours-reply',
  name: 'Answer mail received out of hours',
  description:
    'Mail that arrives on a weekend or outside 9:00-18:00 (Paris time; change the time zone in “Read when it arrived”) gets a reply saying you will answer on the next working day. The reply waits in your Review queue unless you allow the workflow to send without review. Auto-replies, bounces, no-reply senders, mailing lists and calendar answers (an accepted or declined meeting) never get one.',
  category: 'triage',
  graph: {
    nodes: [
      { id: 'message', type: 'trigger.mail', version: 1, name: 'New mail in the inbox', params: { folders: ['inbox'] }, position: at(0) },
      {
        id: 'person',
        type: 'logic.if',
        version: 2,
        name: 'Written by a person, not a calendar?',
        params: { combine: 'all', conditions: [{ left: '{{ trigger.isCalendar }}', operator: 'not_equals', right: true }] },
        position: at(1),
      },
      {
        id: 'received',
        type: 'data.datetime',
        version: 1,
        name: 'Read when it arrived',
        params: { operation: 'format', date: '{{ trigger.receivedAt }}', pattern: 'i-HH', timeZone: 'Europe/Paris' },
        position: at(2),
      },
      {
        id: 'out-of-hours',
        type: 'logic.if',
        version: 2,
        name: 'Outside office hours?',
        params: {
          combine: 'any',
          conditions: [
            { left: part('Before'), operator: 'gte', right: 6 },
            { left: part('After'), operator: 'lt', right: 9 },
            { left: part('After'), operator: 'gte', right: 18 },
          ],
        },
        position: at(3),
      },
      {
        id: 'reply',
        type: 'mail.send',
        version: 1,
        name: 'Say when we will answer',
        params: {
          replyTo: { mode: 'reply' },
          bodyText:
            'Hello,\n\nThank you for your message. It reached us outside office hours (Monday to Friday, 9:00 to 18:00, Paris time); we will answer on the next working day.\n\nBest regards',
        },
        position: at(4, -1),
      },
    ],
    connections: [
      { from: 'message', output: 'main', to: 'person' },
      { from: 'person', output: 'true', to: 'received' },
      { from: 'received', output: 'main', to: 'out-of-hours' },
      { from: 'out-of-hours', output: 'true', to: 'reply' },
    ],
    notes: [setUpNote('Set your time zone in “Read when it arrived” and your hours in “Outside office hours?” (day 6 and 7 are the weekend).')],
  },
  setUp: [],
};
