/** Newsletters out of the inbox: labelled “Newsletters”, marked read and archived. */
import { at, setUpNote, type StarterTemplate } from './types';

export const labelAndArchiveNewsletters: StarterTemplate = {
  slug: 'label-and-archive-newsletters',
  name: 'Label and archive newsletters',
  description:
    'Keeps newsletters out of the inbox: each new newsletter or marketing message gets the “Newsletters” label, is marked read and moves to the archive. Newsletters are recognised by the headers their sending platforms write (Mailchimp, Substack, HubSpot, SendGrid…), whoever sends them; discussion lists, notifications and mail from people stay in the inbox.',
  category: 'triage',
  graph: {
    nodes: [
      {
        id: 'newsletter',
        type: 'trigger.mail',
        version: 1,
        name: 'A newsletter arrives',
        params: { folders: ['inbox'], bulkOnly: true, includeMailingLists: true, includeNoReply: true },
        position: at(0),
      },
      { id: 'label', type: 'mail.label', version: 1, name: 'Label it Newsletters', params: { add: ['Newsletters'] }, position: at(1) },
      { id: 'read', type: 'mail.mark_read', version: 1, name: 'Mark it read', params: { read: true }, position: at(2) },
      { id: 'archive', type: 'mail.move', version: 1, name: 'Move it to the archive', params: { folder: 'archive' }, position: at(3) },
    ],
    connections: [
      { from: 'newsletter', output: 'main', to: 'label' },
      { from: 'label', output: 'main', to: 'read' },
      { from: 'read', output: 'main', to: 'archive' },
    ],
    notes: [setUpNote('Nothing to set: publish it. To handle only some newsletters, name their senders in the trigger’s sender filter (an address, a domain or a word of the name).')],
  },
  setUp: [],
};
