/** A program's event (a JSON POST to the webhook) becomes a message, reviewed before it goes out. */
import { at, setUpNote, type StarterTemplate } from './types';

export const forwardWebhookEventsAsMail: StarterTemplate = {
  slug: 'forward-webhook-events-as-mail',
  name: 'Forward webhook events as mail',
  description:
    'Turns each event a program POSTs to the workflow’s webhook into a message: to the address in the event’s `to` field, with its `subject` and `text` (or the whole event as JSON when it has no text). Messages wait in your Review queue unless you allow the workflow to send without review.',
  category: 'integrations',
  graph: {
    nodes: [
      { id: 'event', type: 'trigger.webhook', version: 1, name: 'An event arrives', params: {}, position: at(0) },
      {
        id: 'send',
        type: 'mail.send',
        version: 1,
        name: 'Mail the event',
        params: {
          to: '{{ trigger.to }}',
          subject: '{{ trigger.subject ? $substring($string(trigger.subject), 0, 500) : "New event" }}',
          bodyText: '{{ trigger.text ? $string(trigger.text) : $string(trigger, true) }}',
        },
        position: at(1),
      },
    ],
    connections: [{ from: 'event', output: 'main', to: 'send' }],
    notes: [
      setUpNote('Choose the mailbox the messages go out from in “Mail the event”, then create the webhook (Settings of the workflow). Events look like {"to": "team@example.com", "subject": "…", "text": "…"}.'),
    ],
  },
  setUp: [{ nodeId: 'send', param: 'mailboxId', what: 'The mailbox the messages go out from.' }],
};
