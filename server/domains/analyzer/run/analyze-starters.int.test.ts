/**
 * The analyzer without an AI connection still proposes what fits (issue 19 §7): the groups it found
 * on a seeded mirror (newsletters from one domain and one list, a recurring invoice subject with
 * attachments, people) get the matching starter templates, and “Create this workflow” installs the
 * template itself through the route.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../core/db';
import { reportBodySchema } from '../schemas';
import { createMember, type TestMember } from '../../../testing/factories';
import { createMailbox, createMessage } from '../../../testing/mail-factories';
import { call } from '../../../testing/rest-client';
import { useTestDatabase } from '../../../testing/test-database';
import { syncStarterTemplates } from '../../../../runner/templates/sync-starter';
import { runAnalysis } from './analyze';

await useTestDatabase();

const day = 86_400_000;
const at = (days: number) => new Date(Date.now() - days * day);

let owner: TestMember;

beforeAll(async () => {
  await db().llmConnection.deleteMany();
  await syncStarterTemplates();
  owner = await createMember();
});

async function seededMailbox() {
  const mailbox = await createMailbox(owner);
  // Newsletters from senders whose address says nothing of it, one list among them.
  for (let index = 0; index < 6; index += 1) {
    const message = await createMessage(mailbox, { fromEmail: index % 2 ? 'bonjour@graines-et-cie.example' : 'hello@graines-et-cie.example', subject: `Les nouveautés ${index}`, receivedAt: at(index + 1) });
    await db().mailMessage.update({ where: { id: message.id }, data: { isMailingList: true, isBulk: true, listId: 'news.graines-et-cie.example' } });
  }
  // A supplier's invoices, each with its PDF.
  for (let index = 0; index < 5; index += 1) await createMessage(mailbox, { fromEmail: 'facturation@imprimerie.example', subject: `Facture F-2025-03${10 + index}`, hasAttachments: true, receivedAt: at(index + 2) });
  // People.
  for (let index = 0; index < 5; index += 1) await createMessage(mailbox, { fromEmail: 'amaia@friends.example', subject: `Café jeudi ${index}`, receivedAt: at(index + 3) });
  return mailbox;
}

describe('the analyzer without an AI connection', () => {
  it('proposes the newsletter template for list and bulk groups and the invoice template for the recurring invoice subject; nothing for people', async () => {
    const mailbox = await seededMailbox();
    const row = await db().mailboxAnalysis.create({ data: { mailboxId: mailbox.id, memberId: owner.id, windowDays: 30, minGroupVolume: 5 } });
    await runAnalysis(row.id);
    const done = await db().mailboxAnalysis.findUniqueOrThrow({ where: { id: row.id } });
    expect(done.status).toBe('done');
    expect(done.llmOutcome).toEqual({ status: 'no_provider' });
    const body = reportBodySchema.parse(done.body);

    const newsletters = body.opportunities.find((opportunity) => opportunity.template?.slug === 'label-and-archive-newsletters');
    expect(newsletters).toMatchObject({ kind: 'label_archive', title: 'Label and archive newsletters', evidence: { messages: 6 } });
    expect(newsletters!.evidence.groups.map((group) => group.key).sort()).toEqual(['domain:graines-et-cie.example', 'list:news.graines-et-cie.example']);

    const invoices = body.opportunities.find((opportunity) => opportunity.template?.slug === 'extract-invoices-into-a-table');
    expect(invoices).toMatchObject({ kind: 'extract_table', title: 'Extract invoices into a table', evidence: { messages: 5 } });
    expect(invoices!.evidence.groups.map((group) => group.key)).toEqual(expect.arrayContaining(['domain:imprimerie.example', expect.stringMatching(/^subject:facture/)]));
    expect(invoices!.evidence.sampleSubjects[0]).toMatch(/^Facture F-2025-03/);

    // People's mail is proposed nothing.
    expect(body.opportunities.flatMap((opportunity) => opportunity.evidence.groups.map((group) => group.key)).some((key) => key.includes('friends') || key.includes('café'))).toBe(false);
    expect(body.opportunities).toHaveLength(2);

    // “Create this workflow” installs the template: a draft with its graph, the install counted.
    const created = await call('POST', `/api/v1/mailboxes/${mailbox.id}/analyzer/opportunities/${newsletters!.key}/create`, { cookie: owner.cookie, body: {} });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const workflow = await db().workflow.findUniqueOrThrow({ where: { id: created.body.workflowId } });
    expect(workflow).toMatchObject({ memberId: owner.id, name: 'Label and archive newsletters', publishedVersionId: null });
    expect((await db().template.findUniqueOrThrow({ where: { slug: 'label-and-archive-newsletters' } })).installCount).toBe(1);
  });
});
