/**
 * Waiting for a reply across a runner's death (issue 24 §1), with real runner processes (runner/main.ts:
 * the mail supervisor syncing a real Dovecot mailbox, the dispatcher, the engine) and mail delivered to
 * the IMAP server: the client's question starts a run that waits for a reply; its runner is SIGKILLed;
 * while no runner is up the client's out-of-office answer and the member's own answer (in Sent) arrive;
 * a new runner mirrors and journals them, and the run still waits (neither is a reply); then the client's
 * reply arrives and ends the wait on the replied port, with the reply.
 *
 * No timed assertions: the waits are generous deadlines for progress, the checks are on the end state.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runnerProcesses } from '../testing/runner-processes';
import { waitFor } from '../testing/wait-for';
import { db } from '../../server/core/db';
import { createMember } from '../../server/testing/factories';
import { createImapMailbox } from '../../server/testing/imap-mailbox';
import { appendMessage, buildRawMessage, openTestImap, type RawMessageFields } from '../../server/testing/mail-servers/deliver';
import { startDovecot, type DovecotServer } from '../../server/testing/mail-servers/dovecot';
import { useTestDatabase } from '../../server/testing/test-database';
import { createWorkflow } from '../../server/testing/workflow-factories';

const databaseUrl = await useTestDatabase();
const user = { user: `sales-${randomUUID().slice(0, 8)}@example.test`, password: `pw-${randomUUID()}` };

let dovecot: DovecotServer;
// A short mailbox lease (25 s by default): the new runner takes the dead one's mailbox over within about 10 s. One
// runner is up at a time here, so no take-over can be spurious.
const runners = runnerProcesses({ DATABASE_URL: databaseUrl, MAIL_ALLOW_PRIVATE_HOSTS: '1', MAIL_LEASE_SECONDS: '8' });

beforeAll(async () => {
  dovecot = await startDovecot({ users: [user] });
  const client = await openTestImap({ server: dovecot, ...user });
  await client.mailboxCreate('Sent');
  await client.logout();
}, 60_000);

afterAll(async () => {
  runners.killAll();
  await dovecot?.stop();
});


it('a reply delivered to the IMAP server wakes the waiting run across a SIGKILL of its runner; an out-of-office and the member’s own answer do not', async () => {
  const member = await createMember();
  const mailbox = await createImapMailbox(member, dovecot, user);
  const { workflow } = await createWorkflow(member, {
    name: 'Follow-up',
    graph: {
      nodes: [
        { id: 'mail', type: 'trigger.mail', version: 1, name: 'A client writes', params: { mailboxIds: [mailbox.id], from: ['@client.test'] } },
        { id: 'wait', type: 'flow.wait_for_reply', version: 1, name: 'Wait for a reply', params: { amount: 3, unit: 'days', businessHours: { timeZone: 'Europe/Paris' } } },
        { id: 'answered', type: 'data.set', version: 1, name: 'Answered', params: { fields: [{ name: 'said', value: '{{ nodes.wait.reply.text }}' }] } },
        { id: 'silent', type: 'data.set', version: 1, name: 'Silent', params: { fields: [{ name: 'branch', value: 'timeout' }] } },
      ],
      connections: [
        { from: 'mail', output: 'main', to: 'wait' },
        { from: 'wait', output: 'replied', to: 'answered' },
        { from: 'wait', output: 'timeout', to: 'silent' },
      ],
    },
  });
  const deliver = async (folder: string, fields: Omit<RawMessageFields, 'to'>) => appendMessage({ server: dovecot, ...user, folder, raw: await buildRawMessage({ to: user.user, ...fields }) });
  const journaled = (subject: string) =>
    waitFor(`“${subject}” journaled`, async () => {
      const message = await db().mailMessage.findFirst({ where: { mailboxId: mailbox.id, subject }, select: { id: true } });
      return message && (await db().mailJournalEntry.findUnique({ where: { messageId: message.id } })) ? message : null;
    });

  const first = runners.start();
  // The first sync (an empty mailbox): what arrives after it is new mail.
  await waitFor('the first sync', async () => (await db().mailbox.findUniqueOrThrow({ where: { id: mailbox.id } })).initialSyncDoneAt !== null);

  const question = `<q-${randomUUID()}@client.test>`;
  await deliver('INBOX', { from: 'Anne Client <anne@client.test>', subject: 'Quote for 40 chairs', text: 'Could you send a quote?', messageId: question });
  const run = await waitFor('the run', () => db().execution.findFirst({ where: { workflowId: workflow.id } }));
  await waitFor('the run waiting for a reply', async () => {
    const current = await db().execution.findUniqueOrThrow({ where: { id: run.id } });
    return current.status === 'waiting' && (await db().executionReplyWait.count({ where: { executionId: run.id } })) === 1;
  });

  // The runner dies; mail arrives while no runner is up.
  await runners.kill(first);
  await deliver('INBOX', {
    from: 'Anne Client <anne@client.test>',
    subject: 'Automatic reply: Quote for 40 chairs',
    text: 'I am out of the office until Monday.',
    inReplyTo: question,
    references: question,
    headers: { 'Auto-Submitted': 'auto-replied' },
  });
  const ours = `<a-${randomUUID()}@example.test>`;
  await appendMessage({
    server: dovecot,
    ...user,
    folder: 'Sent',
    raw: await buildRawMessage({ from: user.user, to: 'anne@client.test', subject: 'Re: Quote for 40 chairs', text: 'Here is our quote.', messageId: ours, inReplyTo: question, references: question }),
  });

  runners.start();
  await journaled('Automatic reply: Quote for 40 chairs');
  await journaled('Re: Quote for 40 chairs');
  // Neither is a reply: still waiting, still registered.
  expect((await db().execution.findUniqueOrThrow({ where: { id: run.id } })).status).toBe('waiting');
  expect(await db().executionReplyWait.count({ where: { executionId: run.id } })).toBe(1);

  await deliver('INBOX', { from: 'Anne Client <anne@client.test>', subject: 'Re: Re: Quote for 40 chairs', text: 'Agreed, please deliver in March.', inReplyTo: ours, references: [question, ours] });
  const done = await waitFor('the run ended', async () => {
    const current = await db().execution.findUniqueOrThrow({ where: { id: run.id }, include: { steps: true } });
    return ['succeeded', 'failed', 'cancelled'].includes(current.status) ? current : null;
  });
  expect(done.error).toBeNull();
  expect(done.status).toBe('succeeded');
  const wait = done.steps.find((step) => step.nodeId === 'wait')!;
  expect(wait).toMatchObject({ output: 'replied', data: { replied: true, reply: { subject: 'Re: Re: Quote for 40 chairs', from: { email: 'anne@client.test' } } } });
  expect(done.steps.find((step) => step.nodeId === 'answered')?.data).toMatchObject({ said: expect.stringContaining('Agreed, please deliver in March.') });
  expect(await db().executionReplyWait.count({ where: { executionId: run.id } })).toBe(0);
  runners.killAll();
}, 600_000);
