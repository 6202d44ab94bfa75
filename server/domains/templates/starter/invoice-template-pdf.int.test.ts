/**
 * The invoice starter template reads the invoice PDF (issue 24 §2): a real PDF with known fields
 * (fixtures/invoice-inv-2024-0042.pdf: invoice INV-2024-0042, total EUR 1,234.50, written by
 * server/testing/pdf-fixtures.ts) is attached to an HTML message whose subject and body give neither
 * the number nor the amount. The message is mirrored and dispatched for real; the template's own graph
 * runs on a real worker with a fake AI vendor: the vendor's request carries the PDF's text, and the
 * table row gets the fields the vendor answers.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../core/db';
import { dispatchNewMail } from '../../../engine/dispatch/dispatch-mail';
import { setCapabilityOptionsForTests } from '../../../engine-adapters/compose';
import { closePdfPool, pdfTextInPool } from '../../../mail/pdf/pdf-text-pool';
import { fakeNet, startFakeVendor, type FakeVendorServer } from '../../../testing/ai-fakes';
import { createMember, type TestMember } from '../../../testing/factories';
import { createFakeLlmConnection } from '../../../testing/llm-factories';
import { createMailbox, mirrorRawMessage } from '../../../testing/mail-factories';
import { buildRawMessage } from '../../../testing/mail-servers/deliver';
import { useTestDatabase } from '../../../testing/test-database';
import { createWorkflow } from '../../../testing/workflow-factories';
import { startEngineWorker, waitForExecution, type EngineWorker } from '../../../../runner/engine/testing/engine-worker';
import { extractInvoicesIntoATable } from './extract-invoices-into-a-table';
import { createInvoicesTable } from '../../../testing/invoice-table';

const databaseUrl = await useTestDatabase();
const invoicePdf = readFileSync(new URL('./fixtures/invoice-inv-2024-0042.pdf', import.meta.url));

let worker: EngineWorker;
let vendor: FakeVendorServer;
let member: TestMember;
let tableId: string;

beforeAll(async () => {
  vendor = await startFakeVendor('openai');
  setCapabilityOptionsForTests({ aiNet: fakeNet });
  worker = await startEngineWorker(databaseUrl);
  await createFakeLlmConnection(vendor);
  const admin = await createMember({ role: 'admin' });
  member = await createMember();
  tableId = await createInvoicesTable(admin);
});
afterAll(async () => {
  await worker?.stop();
  await vendor?.close();
  setCapabilityOptionsForTests({});
  await closePdfPool();
});

describe('the invoice fixture', () => {
  it('is a real PDF that PDF.js opens, with the invoice number and total on its page', async () => {
    expect(invoicePdf.subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
    const read = await pdfTextInPool(new Uint8Array(invoicePdf), { maxPages: 20, maxChars: 32_000 });
    expect(read).toMatchObject({ ok: true, totalPages: 1 });
    expect(read.ok && read.text).toContain('Invoice number: INV-2024-0042');
    expect(read.ok && read.text).toContain('Total due: EUR 1,234.50');
  });
});

describe('the invoice template fills its table from the invoice PDF', () => {
  it('the AI step reads the PDF’s text; the row gets the number and total the vendor answers', async () => {
    const { workflow } = await createWorkflow(member, { graph: extractInvoicesIntoATable.graph as never, name: extractInvoicesIntoATable.name });
    const mailbox = await createMailbox(member, { address: 'accounts@example.test' });
    const source = await buildRawMessage({
      from: 'ACME Billing <billing@acme.test>',
      to: mailbox.address,
      subject: 'Your invoice from ACME',
      html: '<p>Hello,</p><p>please find your invoice attached. Thank you for your business.</p>',
      attachments: [{ filename: 'INV-2024-0042.pdf', content: invoicePdf, contentType: 'application/pdf' }],
    });
    await mirrorRawMessage(mailbox, source);
    vendor.reply({ kind: 'json', value: { invoiceNumber: 'INV-2024-0042', total: 1234.5 }, usage: { input: 300, output: 20 } });
    expect(await dispatchNewMail(mailbox.id)).toBe(1);
    const started = await db().execution.findFirstOrThrow({ where: { workflowId: workflow.id }, select: { id: true, triggerData: true } });
    expect(started.triggerData).toMatchObject({ text: 'Hello,\n\nplease find your invoice attached. Thank you for your business.', attachments: [{ filename: 'INV-2024-0042.pdf', contentType: 'application/pdf' }] });

    const done = await waitForExecution(started.id);
    expect(done.error).toBeNull();
    expect(done.status).toBe('succeeded');

    // What the model was sent: the message, then the PDF's text under its name.
    const sent = JSON.stringify(vendor.lastRequest?.body);
    expect(sent).toContain('please find your invoice attached');
    expect(sent).toContain('=== Attachment 1 of 1: INV-2024-0042.pdf (application/pdf) ===');
    expect(sent).toContain('Invoice number: INV-2024-0042');
    expect(sent).toContain('Total due: EUR 1,234.50');
    expect(sent).not.toContain('sk-fake-key');

    const read = done.steps.find((step) => step.nodeId === 'read')!;
    expect(read).toMatchObject({ status: 'succeeded', llmSkipped: false, data: { fields: { invoiceNumber: 'INV-2024-0042', total: 1234.5 } } });
    const row = await db().tableRow.findFirstOrThrow({ where: { tableId, keyValue: 'INV-2024-0042' } });
    expect(row.cells).toMatchObject({ invoice: 'INV-2024-0042', sender: 'billing@acme.test', subject: 'Your invoice from ACME', amount: 1234.5 });
  });
});
