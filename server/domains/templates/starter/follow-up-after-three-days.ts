/**
 * A follow-up draft three days after a contact's message. Mail the mailbox sends never starts a
 * workflow (the loop guard), and no node reads a thread yet, so this waits from the contact's
 * message and does not check for later replies: the draft waits in Review.
 */
import { at, setUpNote, type StarterTemplate } from './types';

export const followUpAfterThreeDays: StarterTemplate = {
  slug: 'follow-up-after-three-days',
  name: 'Follow up after three days',
  description:
    'Three days after a message from the contacts you choose, prepares a follow-up reply in the same thread and leaves it in your Review queue. It does not look for replies written since (no node reads a thread yet): send the draft if the conversation stalled, reject it if it moved on. Mail you send cannot start a workflow, so the wait starts from their message.',
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
      { id: 'wait', type: 'flow.wait', version: 1, name: 'Wait three days', params: { mode: 'duration', amount: 3, unit: 'days' }, position: at(1) },
      {
        id: 'draft',
        type: 'mail.draft',
        version: 1,
        name: 'Draft a follow-up for review',
        params: {
          replyTo: { mode: 'reply' },
          bodyText:
            'Hello {{ trigger.from.name ? trigger.from.name : "" }},\n\nI am following up on your message “{{ trigger.subject }}” of {{ $substring(trigger.receivedAt, 0, 10) }}. Is there anything you still need from us?\n\nBest regards',
        },
        position: at(2),
      },
    ],
    connections: [
      { from: 'message', output: 'main', to: 'wait' },
      { from: 'wait', output: 'main', to: 'draft' },
    ],
    notes: [setUpNote('Put the addresses or domains of the contacts to follow up in the trigger’s sender filter (it matches nobody until you do). Change the wait and the text to taste.')],
  },
  setUp: [{ nodeId: 'message', param: 'from', what: 'Addresses or domains of the contacts to follow up.' }],
};
