/** The table the invoice starter template writes to, as its card asks for it (the tests of that template). */
import { expect } from 'vitest';
import type { TestMember } from './factories';
import { call } from './rest-client';

export async function createInvoicesTable(admin: TestMember): Promise<string> {
  const created = await call('POST', '/api/v1/tables', {
    cookie: admin.cookie,
    body: {
      name: 'Invoices',
      slug: 'invoices',
      columns: [
        { label: 'Invoice', key: 'invoice', isKey: true },
        { label: 'Sender', key: 'sender', type: 'email' },
        { label: 'Subject', key: 'subject' },
        { label: 'Received at', key: 'received_at', type: 'datetime' },
        { label: 'Amount', key: 'amount', type: 'number' },
      ],
    },
  });
  expect(created.status).toBe(201);
  return (created.body as { table: { id: string } }).table.id;
}
