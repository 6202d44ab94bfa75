/**
 * The address book in what a workflow writes (issue 22, "every draft written for its recipient"),
 * through the real engine, the llm domain and a fake OpenAI-style vendor: a mail from a contact the
 * member vouvoies formally, with a mailbox default signature, goes through ai.compose and mail.draft
 * (a reply) and comes out as a review item whose body carries the signature, while the model's request
 * carried the formality, tone and language. Also the review detail's recipients and contacts.lookup.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../core/db';
import type { GraphInput } from '../engine/contract/graph';
import { mailTriggerDataOf } from '../engine/dispatch/dispatch-mail';
import { startExecution } from '../engine/run/start';
import { fakeNet, startFakeVendor, type FakeVendorServer } from '../testing/ai-fakes';
import { mailboxDefaults, memberCard, sharedCard, signature } from '../testing/contact-cards';
import { createMember, type TestMember } from '../testing/factories';
import { createFakeLlmConnection } from '../testing/llm-factories';
import { createMailbox, createMessage } from '../testing/mail-factories';
import { call } from '../testing/rest-client';
import { useTestDatabase } from '../testing/test-database';
import { createWorkflow } from '../testing/workflow-factories';
import { startEngineWorker, waitForExecution, type EngineWorker } from '../../runner/engine/testing/engine-worker';
import { leftRunning } from '../../runner/engine/testing/left-running';
import { setCapabilityOptionsForTests } from './compose';

const databaseUrl = await useTestDatabase();
let worker: EngineWorker;
let vendor: FakeVendorServer;
let member: TestMember;
let mailbox: { id: string; address: string };

beforeAll(async () => {
  vendor = await startFakeVendor('openai');
  setCapabilityOptionsForTests({ aiNet: fakeNet });
  worker = await startEngineWorker(databaseUrl);
  member = await createMember();
  mailbox = await createMailbox(member, { address: 'support@desk.test' });
  await createFakeLlmConnection(vendor, { label: 'Fake' });
});
afterAll(async () => {
  await worker?.stop();
  await vendor?.close();
  setCapabilityOptionsForTests({});
});

const trigger = { id: 'start', type: 'trigger.mail', version: 1, name: 'Mail', params: {} };

async function runOn(message: { id: string }, nodes: Record<string, unknown>[]) {
  const ids = nodes.map((node) => node.id as string);
  const graph = { nodes: [trigger, ...nodes], connections: ['start', ...ids].slice(0, -1).map((from, index) => ({ from, output: 'main', to: ids[index]! })) } as GraphInput;
  const { workflow, version } = await createWorkflow(member, { graph, name: 'Answer customers' });
  const data = (await mailTriggerDataOf(db() as never, message.id, { graph, triggerNodeId: 'start' }))!;
  const execution = await startExecution({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id, trigger: { type: 'mail', nodeId: 'start', mailboxId: mailbox.id, messageId: message.id, data } });
  return waitForExecution(execution.id);
}

describe('a draft written for its recipient', () => {
  it('ai.compose on the fake vendor and mail.draft: the model request carries vous/formal/fr, the review item the mailbox’s default signature', async () => {
    await sharedCard('domain', 'bigcorp.test', { displayName: 'Big Corp', status: 'vip', language: 'fr' });
    await memberCard(member.id, 'contact', 'anne@bigcorp.test', { formality: 'vous', tone: 'formal' });
    const sig = await signature(member.id, { text: 'Claire Dupont\nSupport', html: '<p><b>Claire Dupont</b></p>' });
    await mailboxDefaults(mailbox.id, { signatureId: sig.id });
    const message = await createMessage(mailbox, { subject: 'Devis', fromEmail: 'anne@bigcorp.test', fromName: 'Anne' });

    vendor.reply({ kind: 'json', value: { subject: 'Re: Devis', bodyText: 'Madame, veuillez trouver notre devis.' } });
    const done = await runOn(message, [
      { id: 'compose', type: 'ai.compose', version: 1, name: 'Write', params: { instructions: 'Answer with the quote' } },
      { id: 'draft', type: 'mail.draft', version: 1, name: 'Draft', params: { replyTo: {}, bodyText: '{{ input.bodyText }}' } },
    ]);
    expect(done.error).toBeNull();
    expect(done.status).toBe('succeeded');

    // The model's request: the prompt says how to write to this recipient.
    const request = JSON.stringify(vendor.lastRequest?.body);
    expect(request).toContain('Write in fr.');
    expect(request).toContain('formality: vous');
    expect(request).toContain('Tone: formal.');
    const compose = done.steps.find((step) => step.nodeId === 'compose')!;
    expect(compose.data).toMatchObject({ recipient: { address: 'anne@bigcorp.test', formality: 'vous', tone: 'formal', language: 'fr', sources: { formality: 'member_contact', tone: 'member_contact', language: 'shared_domain' } } });

    // The review item: the reply, signed once with the mailbox's default signature.
    const item = await db().outboundMessage.findFirstOrThrow({ where: { executionId: done.id } });
    expect(item).toMatchObject({ mode: 'draft', reviewStatus: 'pending', toAddrs: ['anne@bigcorp.test'] });
    expect(item.bodyText).toBe('Madame, veuillez trouver notre devis.\n\n-- \nClaire Dupont\nSupport');

    // The review pane's data: the recipient's display name and status.
    const detail = await call('GET', `/api/v1/review/${item.id}`, { cookie: member.cookie });
    expect(detail.status).toBe(200);
    expect(detail.body.recipientCards).toEqual([{ address: 'anne@bigcorp.test', displayName: 'Big Corp', status: 'vip' }]);
  });

  it('a card’s own signature beats the mailbox’s; `signature: false` adds none; an address with no card and no default gets none', async () => {
    const own = await signature(member.id, { text: 'Claire (pour Paul)' });
    await memberCard(member.id, 'contact', 'paul@friends.test', { formality: 'tu', signatureId: own.id });
    const fromPaul = await createMessage(mailbox, { subject: 'Salut', fromEmail: 'paul@friends.test' });
    const signed = await runOn(fromPaul, [{ id: 'draft', type: 'mail.draft', version: 1, name: 'Draft', params: { replyTo: {}, bodyText: 'Merci !' } }]);
    expect((await db().outboundMessage.findFirstOrThrow({ where: { executionId: signed.id } })).bodyText).toBe('Merci !\n\n-- \nClaire (pour Paul)');

    const unsigned = await runOn(fromPaul, [{ id: 'draft', type: 'mail.draft', version: 1, name: 'Draft', params: { replyTo: {}, bodyText: 'Merci !', signature: false } }]);
    expect((await db().outboundMessage.findFirstOrThrow({ where: { executionId: unsigned.id } })).bodyText).toBe('Merci !');
  });

  it('never twice on a retried step: the attempt cut off after making the signed item leaves one item, signed once', async () => {
    const own = await signature(member.id, { text: 'Claire, once' });
    await memberCard(member.id, 'contact', 'retry@friends.test', { signatureId: own.id });
    const graph = { nodes: [{ id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} }, { id: 'draft', type: 'mail.draft', version: 1, name: 'Draft', params: { mailboxId: mailbox.id, to: 'retry@friends.test', subject: 'Once', bodyText: 'Hello' } }], connections: [{ from: 'start', output: 'main', to: 'draft' }] } as GraphInput;
    const { workflow, version } = await createWorkflow(member, { graph });
    const execution = await leftRunning({ memberId: member.id, workflowId: workflow.id, workflowVersionId: version!.id });
    await db().executionStep.create({ data: { executionId: execution.id, nodeId: 'draft', nodeType: 'mail.draft', status: 'running', attempt: 1, seq: 1, startedAt: new Date(), attemptStartedAt: new Date(Date.now() - 2_000) } });
    // What the first attempt did before its runner died: it claimed the effect and made the signed item.
    const effectKey = `${execution.id}:draft:outbound`;
    await db().executionEffect.create({ data: { effectKey, executionId: execution.id, nodeId: 'draft', kind: 'mail.draft', description: 'Draft' } });
    const { createOutbound } = await import('../domains/outbound/create');
    const signedBody = 'Hello\n\n-- \nClaire, once';
    const { item: first } = await createOutbound({ memberId: member.id, mailboxId: mailbox.id, mode: 'draft', origin: 'workflow', review: true, to: ['retry@friends.test'], subject: 'Once', bodyText: signedBody, dedupeKey: effectKey }, db() as never);

    const done = await waitForExecution(execution.id);
    expect(done.status).toBe('succeeded');
    expect(done.steps.find((step) => step.nodeId === 'draft')!.data).toMatchObject({ itemId: first.id });
    const items = await db().outboundMessage.findMany({ where: { memberId: member.id, subject: 'Once' } });
    expect(items.map((item) => item.bodyText)).toEqual([signedBody]);
  }, 20_000);

  it('contacts.lookup reads any address’s entry in a run; another member’s mailbox is contacts.mailbox_not_found', async () => {
    const message = await createMessage(mailbox, { fromEmail: 'anne@bigcorp.test' });
    const done = await runOn(message, [{ id: 'lookup', type: 'contacts.lookup', version: 1, name: 'Lookup', params: { address: 'someone@bigcorp.test' } }]);
    expect(done.status).toBe('succeeded');
    expect(done.steps.find((step) => step.nodeId === 'lookup')!.data).toMatchObject({ address: 'someone@bigcorp.test', known: true, status: 'vip', displayName: 'Big Corp', formality: null, sources: { status: 'shared_domain' } });

    const stranger = await createMailbox(await createMember());
    const refused = await runOn(message, [{ id: 'lookup', type: 'contacts.lookup', version: 1, name: 'Lookup', params: { address: 'someone@bigcorp.test', mailboxId: stranger.id } }]);
    expect(refused.status).toBe('failed');
    expect(refused.error).toMatchObject({ code: 'contacts.mailbox_not_found', kind: 'permanent' });
  });
});
