/**
 * Follow up when a contact goes quiet (issue 24 §1). Mail the mailbox sends never starts a workflow (the
 * loop guard), so the run starts from the contact's message and waits three business days for anyone on
 * their side to write again in the thread (the wait for a reply: your own messages and automatic replies
 * do not count). When someone did, the conversation moved on and nothing happens. When nobody did, the
 * run reads the conversation: if your answer is its last message, a follow-up to the contact waits in
 * Review; if you never answered, you get a reminder instead of a draft.
 */
import { at, setUpNote, type StarterTemplate } from './types';

export const followUpAfterThreeDays: StarterTemplate = {
  slug: 'follow-up-after-three-days',
  name: 'Follow up after three days',
  description:
    'When a contact you choose writes, waits three business days (Monday to Friday, 9:00 to 18:00, Paris time) for them to write again in the conversation. If they did, nothing happens. If they did not and your answer is the last message, prepares a follow-up reply in the same conversation and leaves it in your Review queue; if you never answered, reminds you instead. Your own messages and automatic replies (out of office, bounces) do not count as their reply.',
  category: 'follow-up',
  graph: {
    nodes: [
      {
        id: 'message',
        type: 'trigger.mail',
        version: 1,
        name: 'A contact writes',
        params: { folders: ['inbox'], from: ['@your-client.example'] },
        position: at(0),
      },
      {
        id: 'wait',
        type: 'flow.wait_for_reply',
        version: 1,
        name: 'Wait three business days for them to write again',
        params: { amount: 3, unit: 'days', businessHours: { timeZone: 'Europe/Paris', days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '09:00', end: '18:00' } },
        position: at(1),
      },
      { id: 'thread', type: 'mail.read_thread', version: 1, name: 'Read the conversation', params: {}, position: at(2) },
      {
        id: 'answered',
        type: 'logic.if',
        version: 2,
        name: 'Is your answer the last message?',
        params: { conditions: [{ left: '{{ nodes.thread.awaitingReply }}', operator: 'equals', right: true }], combine: 'all' },
        position: at(3),
      },
      {
        id: 'draft',
        type: 'mail.draft',
        version: 1,
        name: 'Draft a follow-up for review',
        params: {
          replyTo: { mode: 'reply' },
          bodyText:
            'Hello {{ trigger.from.name ? trigger.from.name : "" }},\n\nI am following up on my message about “{{ trigger.subject }}”. Do you have any questions, or is there anything else you need from us?\n\nBest regards',
        },
        position: at(4, -1),
      },
      {
        id: 'remind',
        type: 'notify.owner',
        version: 1,
        name: 'Remind you to answer',
        params: {
          title: 'Still unanswered: {{ $substring(trigger.subject ? trigger.subject : "(no subject)", 0, 90) }}',
          body: '{{ trigger.from.email }} wrote on {{ $substring(trigger.receivedAt, 0, 10) }} and has had no answer for three business days.',
          severity: 'info',
        },
        position: at(4, 1),
      },
    ],
    connections: [
      { from: 'message', output: 'main', to: 'wait' },
      { from: 'wait', output: 'timeout', to: 'thread' },
      { from: 'thread', output: 'main', to: 'answered' },
      { from: 'answered', output: 'true', to: 'draft' },
      { from: 'answered', output: 'false', to: 'remind' },
    ],
    notes: [
      setUpNote(
        'Put the addresses or domains of the contacts to follow up in the trigger’s sender filter (it matches nobody until you do). Set your time zone and business hours in the wait, and change the text to taste.',
      ),
    ],
  },
  setUp: [
    { nodeId: 'message', param: 'from', what: 'Addresses or domains of the contacts to follow up.' },
    { nodeId: 'wait', param: 'businessHours', what: 'Your time zone and business hours.' },
  ],
};
