/**
 * The invoice starter template on invoices as they are written (issue 19 §2): it passed its test run,
 * then failed on the first real invoice because it wrote "EUR 87.40" into a number column. Its own
 * graph, unchanged, runs live and as a test run on mirrored invoices whose preview gives the amount
 * the ways people write it, into the table its card describes (amount as a number). No AI provider is
 * set up here: its AI step ("Read the invoice") is passed over and the fields come from the subject and
 * the text (invoice-template-pdf.int.test.ts shows the AI path on a real PDF).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../core/db';
import { mailTriggerDataOf } from '../../../engine/dispatch/dispatch-mail';
import { startExecution } from '../../../engine/run/start';
import { extractInvoicesIntoATable } from './extract-invoices-into-a-table';
import { createMember, type TestMember } from '../../../testing/factories';
import { createMailbox, createMessage } from '../../../testing/mail-factories';
import { createWorkflow } from '../../../testing/workflow-factories';
import { useEngineWorker, waitForExecution } from '../../../../runner/engine/testing/engine-worker';
import { createInvoicesTable } from '../../../testing/invoice-table';

await useEngineWorker();
let member: TestMember;
let mailbox: { id: string };
let tableId: string;

beforeAll(async () => {
  const admin = await createMember({ role: 'admin' });
  member = await createMember();
  mailbox = await createMailbox(member, { address: 'accounts@example.test' });
  tableId = await createInvoicesTable(admin);
});

async function runOn(snippet: string, invoice: string, simulated: boolean) {
  const message = await createMessage(mailbox, { subject: `Invoice no ${invoice}`, snippet, fromEmail: 'billing@supplier.test', hasAttachments: true });
  const { workflow, version } = await createWorkflow(member, { graph: extractInvoicesIntoATable.graph as never, name: extractInvoicesIntoATable.name });
  const execution = await startExecution({
    memberId: member.id,
    workflowId: workflow.id,
    workflowVersionId: version!.id,
    simulated,
    trigger: { type: 'mail', nodeId: 'invoice', mailboxId: mailbox.id, messageId: message.id, data: (await mailTriggerDataOf(db() as never, message.id, { graph: extractInvoicesIntoATable.graph, triggerNodeId: 'invoice' }))! },
  });
  return waitForExecution(execution.id);
}

describe('the invoice template stores amounts as people write them in a number column', () => {
  it.each([
    ['Please find attached our invoice. Amount due: EUR 87.40.', 'A-1001', 87.4],
    ['Bonjour, veuillez trouver la facture ci-jointe, total 1 234,56 € TTC.', 'A-1002', 1234.56],
    ['Total: $1,234.56 due on receipt', 'A-1003', 1234.56],
  ])('%j (invoice %s) → %d, live, and the test run shows the same cell', async (snippet, invoice, amount) => {
    const test = await runOn(snippet, `${invoice}T`, true);
    expect(test.error).toBeNull();
    expect(test.status).toBe('succeeded');
    expect(test.steps.find((step) => step.nodeId === 'save')!.data).toMatchObject({ simulated: true, cells: { invoice: `${invoice}T`, amount } });

    const live = await runOn(snippet, invoice, false);
    expect(live.error).toBeNull();
    expect(live.status).toBe('succeeded');
    expect(live.steps.find((step) => step.nodeId === 'read')).toMatchObject({ status: 'succeeded', llmSkipped: true });
    const row = await db().tableRow.findFirstOrThrow({ where: { tableId, keyValue: invoice } });
    expect(row.cells).toMatchObject({ invoice, sender: 'billing@supplier.test', amount });
  });
});
