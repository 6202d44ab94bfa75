/**
 * Invoice mail into a table: number, sender, subject, date and amount. The invoice is usually the
 * attached PDF, the message only announcing it, so an AI step reads the message and the text of its
 * PDF and plain-text attachments (`ai.extract` with `attachments: pdf_and_text`, issue 24 §2) for the
 * invoice number and the total. Without an AI provider (or when it finds nothing) the step is passed
 * over (`onError: continue`) and the fields fall back to the subject and the message text: the number
 * after "invoice" in the subject, the first amount written with a currency in the text ("EUR 87.40",
 * "1 234,56 €"; never the sentence's final full stop), which a number column reads as a number
 * (server/core/number-text.ts).
 */
import { at, setUpNote, type StarterTemplate } from './types';

/** The AI's answer when it gave one, else the fallback expression's. */
const aiOr = (field: string, test: string, fallback: string) => `{{ ( $ai := nodes.read.fields.${field}; ${test} ? $ai : ${fallback} ) }}`;

const subjectNumber =
  '( $found := $match(trigger.subject ? trigger.subject : "", /(?:invoice|facture|rechnung|inv)[^A-Za-z0-9]*(?:no|n°|nr|number|#)?[^A-Za-z0-9]*([A-Za-z0-9][A-Za-z0-9-]*[0-9][A-Za-z0-9-]*)/i); $found ? $found[0].groups[0] : trigger.id )';
/** The preview first (the start of the text, what older mirrors have), then the body's first 20,000 characters. */
const writtenAmount =
  '( $found := $match($join([trigger.snippet ? trigger.snippet : "", trigger.text ? $substring(trigger.text, 0, 20000) : ""], "\\n"), /(?:€|\\$|£|EUR|USD|GBP) ?[0-9](?:[0-9., ]*[0-9])?|[0-9](?:[0-9., ]*[0-9])? ?(?:€|\\$|£|EUR|USD|GBP)/); $found ? $found[0].match : null )';

const invoiceNumber = aiOr('invoiceNumber', '$type($ai) = "string" and $ai != ""', subjectNumber);
const amount = aiOr('total', '$type($ai) = "number"', writtenAmount);

export const extractInvoicesIntoATable: StarterTemplate = {
  slug: 'extract-invoices-into-a-table',
  name: 'Extract invoices into a table',
  description:
    'For each new message with an attachment whose subject mentions an invoice, reads the message and its attached invoice (PDF or text file) with AI for the invoice number and the total, writes a row in your Invoices table (invoice number, sender, subject, date received, amount) and labels the message “Invoices”. The same invoice number again updates its row. Without an AI provider, or when the AI finds nothing, the number is taken from the subject and the amount from the message’s text. Installing it creates the table, or uses one of yours with the same columns; the amount is stored as a number (“EUR 87.40” and “87,40 €” are both 87.4).',
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
        id: 'read',
        type: 'ai.extract',
        version: 1,
        name: 'Read the invoice',
        onError: 'continue',
        params: {
          fields: [
            { name: 'invoiceNumber', type: 'string', description: 'The invoice number as printed on the invoice.', required: false },
            { name: 'total', type: 'number', description: 'The total amount due, as a number (1234.50), without the currency.', required: false },
          ],
          instructions: 'The invoice is usually the attached document; the message may only announce it. Leave a field empty when the invoice does not give it.',
          attachments: 'pdf_and_text',
        },
        position: at(1),
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
        position: at(2),
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
        position: at(3),
      },
      { id: 'label', type: 'mail.label', version: 1, name: 'Label it Invoices', params: { add: ['Invoices'] }, position: at(4) },
    ],
    connections: [
      { from: 'invoice', output: 'main', to: 'read' },
      { from: 'read', output: 'main', to: 'fields' },
      { from: 'fields', output: 'main', to: 'save' },
      { from: 'save', output: 'main', to: 'label' },
    ],
    notes: [
      setUpNote(
        'Uses the Invoices table chosen when installing (columns Invoice, the key; Sender; Subject; Received at; Amount, a number). To use another table, choose it in “Save it in the invoices table”. “Read the invoice” uses your AI provider; without one, the fields come from the subject and the message.',
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
