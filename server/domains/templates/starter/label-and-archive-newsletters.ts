/** Newsletters out of the inbox: labelled “Newsletters”, marked read and archived. */
import { at, setUpNote, type StarterTemplate } from './types';

export const labelAndArchiveNewsletters: StarterTemplate = {
  slug: 'label-and-archive-newsletters',
  name: 'Label and archive newsletters',
  description:
    'Keeps newsletters out of the inbox: each new message from a newsletter sender gets the “Newsletters” label, is marked read and moves to the archive. Senders are matched by the words in the trigger’s sender filter (newsletter, news@, digest, substack): add the senders of your own newsletters there. Mailing lists and no-reply senders are included.',
  category: 'triage',
  graph: {
    nodes: [
      {
        id: 'newsletter',
        type: 'trigger.mail',
        version: 1,
        name: 'A newsletter arrives',
        params: { folders: ['inbox'], from: ['newsletter', 'news@', 'digest', 'substack'], includeMailingLists: true, includeNoReply: true },
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
    notes: [setUpNote('Add the senders of your newsletters to the trigger’s sender filter (an address, a domain or a word of the sender’s name).')],
  },
  setUp: [{ nodeId: 'newsletter', param: 'from', what: 'Words or addresses of your newsletter senders.' }],
};
