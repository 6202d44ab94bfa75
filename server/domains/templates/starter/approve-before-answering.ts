/** Mail from a sensitive sender: a colleague approves before an answer is drafted; a refusal labels it. */
import { at, setUpNote, type StarterTemplate } from './types';

export const approveBeforeAnswering: StarterTemplate = {
  slug: 'approve-before-answering',
  name: 'Ask a colleague before answering a sender',
  description:
    'When the sender you choose writes, asks for approval (you in the application, and the colleagues whose addresses you add, from an emailed link) before anything is answered. Approved: a reply is drafted in the thread and waits in your Review queue. Rejected or no decision within two days: the message is labelled “Declined”.',
  category: 'approvals',
  graph: {
    nodes: [
      { id: 'message', type: 'trigger.mail', version: 1, name: 'The sender writes', params: { folders: ['inbox'], from: ['@sensitive-client.example'] }, position: at(0) },
      {
        id: 'approval',
        type: 'approval.request',
        version: 1,
        name: 'Ask a colleague whether to answer',
        params: {
          title: 'Answer “{{ trigger.subject ? $substring(trigger.subject, 0, 150) : "(no subject)" }}”?',
          details: 'From {{ trigger.from.email }}: {{ trigger.snippet ? $substring(trigger.snippet, 0, 1500) : "" }}',
          expiresIn: { amount: 2, unit: 'days' },
          approverEmails: [],
        },
        position: at(1),
      },
      {
        id: 'reply',
        type: 'mail.draft',
        version: 1,
        name: 'Draft the answer for review',
        params: { replyTo: { mode: 'reply' }, bodyText: 'Hello,\n\nThank you for your message. \n\nBest regards' },
        position: at(2, -1),
      },
      { id: 'declined', type: 'mail.label', version: 1, name: 'Label it Declined', params: { add: ['Declined'] }, position: at(2, 1) },
    ],
    connections: [
      { from: 'message', output: 'main', to: 'approval' },
      { from: 'approval', output: 'approve', to: 'reply' },
      { from: 'approval', output: 'reject', to: 'declined' },
    ],
    notes: [setUpNote('Set the sender (address or domain) in the trigger’s sender filter, and your colleague’s address in “Approvers” of the approval step (without one, you decide in the application).')],
  },
  setUp: [
    { nodeId: 'message', param: 'from', what: 'The sender (address or domain) whose mail needs approval.' },
    { nodeId: 'approval', param: 'approverEmails', what: 'Your colleague’s address.' },
  ],
};
