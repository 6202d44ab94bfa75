/**
 * Invoice mail into a table: number, sender, subject, date and amount as found in the subject and
 * preview. The amount is taken as written ("EUR 87.40", "1 234,56 €"; never the sentence's final
 * full stop) and a number column reads it as a number (server/core/number-text.ts).
 */
import { at, setUpNote, type StarterTemplate } from './types';

const invoiceNumber =
  '{{ ( $found := $match(trigger.subject ? trigger.subject : "", /(?:invoice|facture|rechnung|inv)[^A-Za-z0-9]*(?:no|n°|nr|number|#)?[^A-Za-z0-9]*([A-Za-z0-9][A-Za-z0-9-]*[0-9][A-Za-z0-9-]*)/i); $found ? $found[0].groups[0] : trigger.id ) }}';
const amount =
  '{{ ( $found := $match(trigger.snippet ? trigger.snippet : "", /(?:€|\\$|£|EUR|USD|GBP) ?[0-9](?:[0-9., ]*[0-9])?|[0-9](?:[0-9., ]*[0-9])? ?(?:€|\\$|£|EUR|USD|GBP)/); $found ? $found[0].match : null ) }}';

export const extractInvoicesIntoATable: StarterTemplate = {
  slug: 'extract-invoices-into-a-table',
  name: 'Extract invoices into a table',
  description:
    'For each new message with an attachment whose subject mentions an invoice, writes a row in your Invoices table (invoice number from the subject, sender, subject, date received, amount found in the message) and labels the message “Invoices”. The same invoice number again updates its row. Installing it creates the table, or uses one of yours with the same columns; the amount is stored as a number (“EUR 87.40” and “87,40 €” are both 87.4).',
  category: 'extraction',
  graph: {
    nodes: [
      {
        id: 'invoice',
        type: 'trigger.mail',
        version: 1,
        name: 'An invoice arrives',
        params: { folders: ['inbox'], subject: ['invoice', 'facture', 'rechnung'], hasAttachments: true, includeNoReply: true },
        position: at(0),
      },
      {
        id: 'fields',
        type: 'data.set',
        version: 1,
        name: 'Pick out the invoice fields',
        params: {
          keepInput: false,
          fields: [
            { name: 'invoice', value: invoiceNumber },
            { name: 'sender', value: '{{ trigger.from.email }}' },
            { name: 'subject', value: '{{ trigger.subject ? $substring(trigger.subject, 0, 500) : "" }}' },
            { name: 'receivedAt', value: '{{ trigger.receivedAt }}' },
            { name: 'amount', value: amount },
          ],
        },
        position: at(1),
      },
      {
        id: 'save',
        type: 'tables.upsert',
        version: 1,
        name: 'Save it in the invoices table',
        params: {
          tableId: 'invoices',
          cells: {
            invoice: '{{ nodes.fields.invoice }}',
            sender: '{{ nodes.fields.sender }}',
            subject: '{{ nodes.fields.subject }}',
            received_at: '{{ nodes.fields.receivedAt }}',
            amount: '{{ nodes.fields.amount }}',
          },
        },
        position: at(2),
      },
      { id: 'label', type: 'mail.label', version: 1, name: 'Label it Invoices', params: { add: ['Invoices'] }, position: at(3) },
    ],
    connections: [
      { from: 'invoice', output: 'main', to: 'fields' },
      { from: 'fields', output: 'main', to: 'save' },
      { from: 'save', output: 'main', to: 'label' },
    ],
    notes: [
      setUpNote(
        'Uses the Invoices table chosen when installing (columns Invoice, the key; Sender; Subject; Received at; Amount, a number). To use another table, choose it in “Save it in the invoices table”.',
      ),
    ],
  },
  setUp: [{ nodeId: 'save', param: 'tableId', what: 'Your invoices table.' }],
  tables: [
    {
      slug: 'invoices',
      name: 'Invoices',
      description: 'One row per invoice, found again by its number.',
      nodeIds: ['save'],
      columns: [
        { key: 'invoice', label: 'Invoice', type: 'text', isKey: true },
        { key: 'sender', label: 'Sender', type: 'email', alsoFits: ['text'] },
        { key: 'subject', label: 'Subject', type: 'text' },
        { key: 'received_at', label: 'Received at', type: 'datetime', alsoFits: ['text'] },
        { key: 'amount', label: 'Amount', type: 'number', alsoFits: ['text'] },
      ],
    },
  ],
};
