/** Mail from a sender of the customers table: labelled “Customer” and its thread marked with the `customer` signal. */
import { at, setUpNote, type StarterTemplate } from './types';

export const tagKnownCustomers: StarterTemplate = {
  slug: 'tag-known-customers',
  name: 'Tag mail from known customers',
  description:
    'Looks up each new sender in your Customers table (keyed by email address; installing it creates the table or uses yours). A customer’s message gets the “Customer” label and its thread the `customer` signal, which your other workflows can require in their mail triggers (later messages of the thread carry it). Anyone else is left alone.',
  category: 'triage',
  graph: {
    nodes: [
      { id: 'message', type: 'trigger.mail', version: 1, name: 'New mail in the inbox', params: { folders: ['inbox'] }, position: at(0) },
      {
        id: 'lookup',
        type: 'tables.lookup',
        version: 1,
        name: 'Look the sender up in Customers',
        params: { tableId: 'customers', key: '{{ trigger.from.email ? $lowercase(trigger.from.email) : "-" }}' },
        position: at(1),
      },
      {
        id: 'known',
        type: 'logic.if',
        version: 2,
        name: 'Is it a customer?',
        params: { conditions: [{ left: '{{ nodes.lookup.found }}', operator: 'equals', right: true }], combine: 'all' },
        position: at(2),
      },
      { id: 'label', type: 'mail.label', version: 1, name: 'Label it Customer', params: { add: ['Customer'] }, position: at(3, -1) },
      { id: 'signal', type: 'signal.mark', version: 1, name: 'Mark the thread as a customer’s', params: { name: 'customer', target: 'thread' }, position: at(4, -1) },
    ],
    connections: [
      { from: 'message', output: 'main', to: 'lookup' },
      { from: 'lookup', output: 'main', to: 'known' },
      { from: 'known', output: 'true', to: 'label' },
      { from: 'label', output: 'main', to: 'signal' },
    ],
    notes: [setUpNote('Uses the Customers table chosen when installing, whose key column is the customer’s email address. Add your customers to it.')],
  },
  setUp: [{ nodeId: 'lookup', param: 'tableId', what: 'Your customers table, keyed by email address.' }],
  tables: [
    {
      slug: 'customers',
      name: 'Customers',
      description: 'Your customers, found by their email address.',
      nodeIds: ['lookup'],
      columns: [
        { key: 'email', label: 'Email', type: 'email', isKey: true, alsoFits: ['text'] },
        { key: 'name', label: 'Name', type: 'text', optional: true },
      ],
    },
  ],
};
