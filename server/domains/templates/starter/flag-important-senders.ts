/** Mail from the people who matter: flagged, and a notification so it is not missed. */
import { at, setUpNote, type StarterTemplate } from './types';

export const flagImportantSenders: StarterTemplate = {
  slug: 'flag-important-senders',
  name: 'Flag and notify mail from important senders',
  description:
    'When one of the senders you list writes (an address, a domain such as @bigclient.com, or a name), the message is flagged and you get a notification with the sender and subject.',
  category: 'notifications',
  graph: {
    nodes: [
      { id: 'message', type: 'trigger.mail', version: 1, name: 'An important sender writes', params: { folders: ['inbox'], from: ['@key-client.example'] }, position: at(0) },
      { id: 'flag', type: 'mail.flag', version: 1, name: 'Flag it', params: { flagged: true }, position: at(1) },
      {
        id: 'notify',
        type: 'notify.owner',
        version: 1,
        name: 'Notify me',
        params: {
          title: '{{ $substring("Mail from " & (trigger.from.name ? trigger.from.name : trigger.from.email), 0, 120) }}',
          body: '{{ trigger.subject ? $substring(trigger.subject, 0, 1000) : "(no subject)" }}',
          severity: 'warning',
        },
        position: at(2),
      },
    ],
    connections: [
      { from: 'message', output: 'main', to: 'flag' },
      { from: 'flag', output: 'main', to: 'notify' },
    ],
    notes: [setUpNote('List your important senders in the trigger’s sender filter (it matches nobody until you do).')],
  },
  setUp: [{ nodeId: 'message', param: 'from', what: 'The important senders (addresses, domains or names).' }],
};
