/**
 * One runner writes a mailbox at a time (issue 25 §4): a runner's sync batches are written only while the
 * mailbox's lease is still that runner's. A batch on its way when the lease is released (the runner gave the
 * mailbox back to even out the shares) or taken over (it stalled past its lease) writes nothing and fails
 * `MailboxLeaseLost`, which the session takes as the mailbox gone to its holder, not as a sync failure. The same
 * fence guards a folder's reset (UIDVALIDITY changed), the folder list's reconciliation and the outcome of a
 * webmail operation the runner applied at the provider (which takes its thread before its message, as the webmail's
 * thread actions do, so the two never deadlock).
 */
import type { PoolClient } from 'pg';
import { describe, expect, it } from 'vitest';
import { db, pool } from '../../core/db';
import { createMember } from '../../testing/factories';
import { createMailbox, providerMessage } from '../../testing/mail-factories';
import { useTestDatabase } from '../../testing/test-database';
import type { MirrorBatch } from '../provider';
import { reconcileFolders } from './folders';
import { completeOperation, dropOperation, failOperation, pendingOperations } from './operations';
import { createMirrorSink, MailboxLeaseLost, type MirrorMailbox } from './writer';

await useTestDatabase();

async function mailboxLeasedTo(owner: string | null) {
  const member = await createMember();
  const row = await createMailbox(member, { provider: 'mail_provider_a' });
  await db().mailbox.update({ where: { id: row.id }, data: { leaseOwner: owner, leaseUntil: owner ? new Date(Date.now() + 60_000) : null } });
  const mailbox: MirrorMailbox = { id: row.id, memberId: member.id, address: row.address, syncMode: 'full' };
  return mailbox;
}

async function batchOf(providerKey: string): Promise<MirrorBatch> {
  const message = await providerMessage(providerKey, { from: 'billing@vendor.example', to: 'team@example.test', subject: `Invoice ${providerKey}`, text: 'Amount due: 120.00 EUR' });
  return { ingestedVia: 'initial', messages: [message], flagUpdates: [], removedProviderKeys: [], cursors: [] };
}

const mirrored = (mailboxId: string) => db().mailMessage.count({ where: { mailboxId } });

describe('the mirror writes only under its runner’s lease', () => {
  it('the lease holder’s batch is written', async () => {
    const mailbox = await mailboxLeasedTo('runner-a');
    await createMirrorSink({ ...mailbox, leaseOwner: 'runner-a' }).commit(await batchOf('held-1'));
    expect(await mirrored(mailbox.id)).toBe(1);
  });

  it('a batch after the lease was released writes nothing and fails MailboxLeaseLost', async () => {
    const mailbox = await mailboxLeasedTo(null);
    await expect(createMirrorSink({ ...mailbox, leaseOwner: 'runner-a' }).commit(await batchOf('released-1'))).rejects.toBeInstanceOf(MailboxLeaseLost);
    expect(await mirrored(mailbox.id)).toBe(0);
  });

  it('a batch after another runner took the lease over writes nothing', async () => {
    const mailbox = await mailboxLeasedTo('runner-b');
    await expect(createMirrorSink({ ...mailbox, leaseOwner: 'runner-a' }).commit(await batchOf('taken-1'))).rejects.toBeInstanceOf(MailboxLeaseLost);
    expect(await mirrored(mailbox.id)).toBe(0);
  });

  it('a release waits for the batch being written under the lease (the lease row is held until it commits)', async () => {
    const mailbox = await mailboxLeasedTo('runner-a');
    const client = await pool().connect();
    try {
      // A batch's transaction holding the fence, as writeBatch takes it.
      await client.query('BEGIN');
      await client.query(`SELECT 1 FROM mailboxes WHERE id = $1::uuid AND lease_owner = 'runner-a' FOR SHARE`, [mailbox.id]);
      let released = false;
      const release = db()
        .$executeRaw`UPDATE mailboxes SET lease_owner = NULL, lease_until = NULL WHERE id = ${mailbox.id}::uuid AND lease_owner = 'runner-a'`
        .then(() => (released = true));
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(released).toBe(false);
      await client.query('COMMIT');
      await release;
      expect(released).toBe(true);
    } finally {
      client.release();
    }
  });

  it('a sink without an owner (a session driven alone) is not fenced', async () => {
    const mailbox = await mailboxLeasedTo('runner-b');
    await createMirrorSink(mailbox).commit(await batchOf('alone-1'));
    expect(await mirrored(mailbox.id)).toBe(1);
  });

  it('the folder list is reconciled under the lease only: a lost lease neither drops a gone folder with its mail nor adds a new one', async () => {
    const mailbox = await mailboxLeasedTo('runner-a');
    const folder = (key: string, role: 'inbox' | null) => ({ key, name: key, role, parentKey: null, depth: 0, delimiter: '/', providerId: null, selectable: true });
    await reconcileFolders({ ...mailbox, leaseOwner: 'runner-a' }, [folder('INBOX', 'inbox'), folder('Archive', null)]);
    await createMirrorSink({ ...mailbox, leaseOwner: 'runner-a' }).commit({ ...(await batchOf('Archive\n1')), messages: [await providerMessage('Archive\n1', { from: 'a@vendor.example', to: 'team@example.test', subject: 'Kept', text: 'x' })] });
    expect(await mirrored(mailbox.id)).toBe(1);

    await db().mailbox.update({ where: { id: mailbox.id }, data: { leaseOwner: 'runner-b' } });
    // The provider's list lost Archive and gained Projects, seen by a runner whose lease went to runner-b.
    await expect(reconcileFolders({ ...mailbox, leaseOwner: 'runner-a' }, [folder('INBOX', 'inbox'), folder('Projects', null)])).rejects.toBeInstanceOf(MailboxLeaseLost);
    const keys = (await db().mailFolder.findMany({ where: { mailboxId: mailbox.id }, orderBy: { key: 'asc' } })).map((row) => row.key);
    expect(keys).toEqual(['Archive', 'INBOX']);
    expect(await mirrored(mailbox.id)).toBe(1);

    // The holder reconciles the same list: Archive goes with its message, Projects comes.
    await reconcileFolders({ ...mailbox, leaseOwner: 'runner-b' }, [folder('INBOX', 'inbox'), folder('Projects', null)]);
    const after = (await db().mailFolder.findMany({ where: { mailboxId: mailbox.id }, orderBy: { key: 'asc' } })).map((row) => row.key);
    expect(after).toEqual(['INBOX', 'Projects']);
    expect(await mirrored(mailbox.id)).toBe(0);
  });

  it('a folder reset (UIDVALIDITY changed) after the lease went removes nothing', async () => {
    const mailbox = await mailboxLeasedTo('runner-a');
    await createMirrorSink({ ...mailbox, leaseOwner: 'runner-a' }).commit(await batchOf('INBOX\n7'));
    await db().mailbox.update({ where: { id: mailbox.id }, data: { leaseOwner: null, leaseUntil: null } });
    await expect(createMirrorSink({ ...mailbox, leaseOwner: 'runner-a' }).resetFolder('INBOX', 99n)).rejects.toBeInstanceOf(MailboxLeaseLost);
    expect(await mirrored(mailbox.id)).toBe(1);
  });

  describe('a webmail operation applied at the provider is recorded under the lease only', () => {
    /** A message mirrored under runner-a's lease with one pending operation of the member (an archive), as the webmail queues it. */
    async function pendingArchive() {
      const mailbox = await mailboxLeasedTo('runner-a');
      await createMirrorSink({ ...mailbox, leaseOwner: 'runner-a' }).commit(await batchOf('INBOX\n1\n42'));
      const message = await db().mailMessage.findFirstOrThrow({ where: { mailboxId: mailbox.id } });
      await db().mailOperation.create({ data: { memberId: mailbox.memberId, mailboxId: mailbox.id, messageId: message.id, action: 'archive', status: 'pending' } });
      const [operation] = await pendingOperations(mailbox.id);
      return { mailbox, operation: operation! };
    }
    const moved = { providerKey: 'Archive\n1\n7', folderKey: 'Archive', uid: 7n, uidValidity: 1n, messageIdHeader: null };
    const statusOf = async (id: string) => (await db().mailOperation.findUniqueOrThrow({ where: { id } })).status;

    /** Another writer's transaction on a connection of its own (`work` commits it); rolled back if a step failed. */
    async function inOtherTransaction(work: (client: PoolClient) => Promise<void>): Promise<void> {
      const client = await pool().connect();
      try {
        await client.query('BEGIN');
        await work(client);
      } finally {
        await client.query('ROLLBACK').catch(() => {});
        client.release();
      }
    }

    it('the holder’s completion is written: the operation is done and the message takes its new identity', async () => {
      const { mailbox, operation } = await pendingArchive();
      await completeOperation({ id: mailbox.id, leaseOwner: 'runner-a' }, operation, { removed: false, moved });
      expect(await statusOf(operation.id)).toBe('done');
      expect((await db().mailMessage.findUniqueOrThrow({ where: { id: operation.messageId } })).folderKey).toBe('Archive');
    });

    it('a completion after another runner took the lease over writes nothing: the operation stays pending for the holder', async () => {
      const { mailbox, operation } = await pendingArchive();
      await db().mailbox.update({ where: { id: mailbox.id }, data: { leaseOwner: 'runner-b' } });
      await expect(completeOperation({ id: mailbox.id, leaseOwner: 'runner-a' }, operation, { removed: false, moved })).rejects.toBeInstanceOf(MailboxLeaseLost);
      expect(await statusOf(operation.id)).toBe('pending');
      expect((await db().mailMessage.findUniqueOrThrow({ where: { id: operation.messageId } })).folderKey).toBe('INBOX');
      expect((await pendingOperations(mailbox.id)).map((pending) => pending.id)).toEqual([operation.id]);
    });

    it('a completion takes the thread before its message, as a webmail action does: the two take turns instead of deadlocking', async () => {
      const { mailbox, operation } = await pendingArchive();
      const threadId = operation.message!.threadId!;
      // The member acts on the thread meanwhile (actOnThread: the thread locked first, then its messages changed).
      await inOtherTransaction(async (action) => {
        await action.query('SELECT 1 FROM mail_threads WHERE id = $1::uuid FOR UPDATE', [threadId]);
        let completed = false;
        const completion = completeOperation({ id: mailbox.id, leaseOwner: 'runner-a' }, operation, { removed: false, moved }).then(() => (completed = true));
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(completed).toBe(false);
        // The completion has not touched the message: the action's change of it does not wait (moving the message
        // first, the completion held it here while it waited for the thread, and one of the two was aborted, 40P01).
        await action.query(`SET LOCAL lock_timeout = '200ms'`);
        await action.query(`UPDATE mail_messages SET labels = labels || ARRAY['Follow-up'] WHERE id = $1::uuid`, [operation.messageId]);
        await action.query('COMMIT');
        await completion;
      });
      expect(await statusOf(operation.id)).toBe('done');
      const message = await db().mailMessage.findUniqueOrThrow({ where: { id: operation.messageId } });
      expect({ folderKey: message.folderKey, labels: message.labels }).toEqual({ folderKey: 'Archive', labels: ['Follow-up'] });
      expect((await db().mailThread.findUniqueOrThrow({ where: { id: threadId } })).folderKeys).toEqual(['Archive', 'Follow-up']);
    });

    it('a completion the database aborts for a deadlock is tried again: a writer taking the message before the thread', async () => {
      const { mailbox, operation } = await pendingArchive();
      const threadId = operation.message!.threadId!;
      // The order a sync batch writes in: the server's flag on the message, then its thread.
      await inOtherTransaction(async (writer) => {
        await writer.query('UPDATE mail_messages SET seen = true WHERE id = $1::uuid', [operation.messageId]);
        const completion = completeOperation({ id: mailbox.id, leaseOwner: 'runner-a' }, operation, { removed: false, moved });
        // The completion holds the thread and waits for the message; the writer now waits for the thread.
        await new Promise((resolve) => setTimeout(resolve, 300));
        await writer.query('UPDATE mail_threads SET updated_at = now() WHERE id = $1::uuid', [threadId]);
        await writer.query('COMMIT');
        await completion;
      });
      expect(await statusOf(operation.id)).toBe('done');
      const message = await db().mailMessage.findUniqueOrThrow({ where: { id: operation.messageId } });
      expect({ folderKey: message.folderKey, seen: message.seen }).toEqual({ folderKey: 'Archive', seen: true });
    });

    it('a failed attempt or a drop after the lease was released counts nothing', async () => {
      const { mailbox, operation } = await pendingArchive();
      await db().mailbox.update({ where: { id: mailbox.id }, data: { leaseOwner: null, leaseUntil: null } });
      await expect(failOperation({ id: mailbox.id, leaseOwner: 'runner-a' }, operation, 'NO [TRYCREATE]', 1, 'INBOX')).rejects.toBeInstanceOf(MailboxLeaseLost);
      await expect(dropOperation({ id: mailbox.id, leaseOwner: 'runner-a' }, operation.id)).rejects.toBeInstanceOf(MailboxLeaseLost);
      const row = await db().mailOperation.findUniqueOrThrow({ where: { id: operation.id } });
      expect(row).toMatchObject({ status: 'pending', attempts: 0, lastError: null });
    });
  });
});
