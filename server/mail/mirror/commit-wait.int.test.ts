/**
 * Which mirror writes wait for their WAL flush at commit. The initial window's batches and the body pass's fills are
 * read from the provider again if a database crash takes their commit back (with the cursor that covers them), so they
 * do not wait; new mail (it starts workflows) and every other write does. Observed from inside the transactions by a
 * trigger on this file's own database, not by looking at the writer's options.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { db, pool } from '../../core/db';
import { createMember } from '../../testing/factories';
import { createMailbox, providerMessage } from '../../testing/mail-factories';
import { useTestDatabase } from '../../testing/test-database';
import type { IncomingMessage, IngestedVia, MirrorBatch } from '../provider';
import { inPgTransaction } from './pg-transaction';
import { commitBatch, createMirrorSink, type MirrorMailbox } from './writer';

// The test server runs without waiting for WAL flushes at all; this file's database waits, as a production one does,
// for every connection its pool opens (all opened after this).
const url = await useTestDatabase();
{
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET synchronous_commit = on', current_database()); END $$`);
  await admin.end();
}

let serverSetting = '';

beforeAll(async () => {
  serverSetting = (await pool().query<{ value: string }>(`SELECT current_setting('synchronous_commit') AS value`)).rows[0]!.value;
  expect(serverSetting).toBe('on');
  await db().$executeRawUnsafe(`CREATE TABLE commit_wait_probe (seq serial, operation text, synchronous_commit text)`);
  await db().$executeRawUnsafe(`
    CREATE FUNCTION record_commit_wait() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO commit_wait_probe (operation, synchronous_commit) VALUES (TG_OP, current_setting('synchronous_commit'));
      RETURN NULL;
    END $$`);
  await db().$executeRawUnsafe(`CREATE TRIGGER record_commit_wait AFTER INSERT OR UPDATE ON mail_messages FOR EACH STATEMENT EXECUTE FUNCTION record_commit_wait()`);
});

afterAll(async () => {
  await db().$disconnect();
});

/** The statements recorded since the last call, in order (and forgotten). */
async function probed(): Promise<Array<{ operation: string; synchronous_commit: string }>> {
  const rows = await db().$queryRawUnsafe<Array<{ seq: number; operation: string; synchronous_commit: string }>>(`DELETE FROM commit_wait_probe RETURNING seq, operation, synchronous_commit`);
  return rows.sort((a, b) => a.seq - b.seq).map(({ operation, synchronous_commit }) => ({ operation, synchronous_commit }));
}

let sent = 0;
/** An invoice as the provider hands it over: whole, or (`headersOnly`) as a listing fetches it, its body deferred. */
async function incoming(options: { headersOnly?: boolean } = {}): Promise<IncomingMessage> {
  sent += 1;
  const message = await providerMessage(`INBOX\n3\n${sent}`, { from: 'Invoices <billing@vendor.test>', subject: `Invoice ${sent}`, text: 'Amount due: 120 EUR' });
  if (!options.headersOnly) return message;
  return { ...message, source: message.source.subarray(0, message.source.indexOf('\r\n\r\n') + 4), sourceComplete: false, bodyDeferred: true };
}

function batch(ingestedVia: IngestedVia, messages: IncomingMessage[]): MirrorBatch {
  return { ingestedVia, messages, flagUpdates: [], removedProviderKeys: [], cursors: [] };
}

async function setup(): Promise<MirrorMailbox> {
  const member = await createMember();
  const mailbox = await createMailbox(member, { address: `wal-${sent}@example.test` });
  return { id: mailbox.id, memberId: member.id, address: mailbox.address, syncMode: 'full' };
}

it('a transaction asked not to wait for its WAL flush commits without it, and leaves the connection as the server has it', async () => {
  const setting = `SELECT current_setting('synchronous_commit') AS value`;
  const inside = await inPgTransaction((sql) => sql.$queryRawUnsafe<{ value: string }[]>(setting), { timeoutMs: 5_000, commitsWaitForWal: false });
  expect(inside).toEqual([{ value: 'off' }]);
  expect(await inPgTransaction((sql) => sql.$queryRawUnsafe<{ value: string }[]>(setting), { timeoutMs: 5_000 })).toEqual([{ value: serverSetting }]);
  // SET LOCAL: every connection of the pool is back to the server's setting once the transaction ended.
  const after = await Promise.all(Array.from({ length: 4 }, () => pool().query<{ value: string }>(setting)));
  expect(after.map((result) => result.rows[0]!.value)).toEqual(Array(4).fill(serverSetting));
});

it("the initial window's batches and the body pass's fills commit without waiting for the WAL flush; new mail waits", async () => {
  const mailbox = await setup();
  await probed();
  const listed = await incoming({ headersOnly: true });
  await commitBatch(mailbox, batch('initial', [listed, await incoming({ headersOnly: true })]));
  await commitBatch(mailbox, batch('initial', [await incoming()]));
  await commitBatch(mailbox, batch('delta', [await incoming()]));
  await commitBatch(mailbox, batch('resync', [await incoming()]));
  expect(await probed()).toEqual([
    { operation: 'INSERT', synchronous_commit: 'off' },
    { operation: 'INSERT', synchronous_commit: 'off' },
    { operation: 'INSERT', synchronous_commit: serverSetting },
    { operation: 'INSERT', synchronous_commit: serverSetting },
  ]);

  const [row] = await db().$queryRawUnsafe<{ id: string }[]>(`SELECT id FROM mail_messages WHERE mailbox_id = $1::uuid AND provider_key = $2`, mailbox.id, listed.providerKey);
  const sink = createMirrorSink(mailbox);
  const whole = await providerMessage(listed.providerKey, { from: 'Invoices <billing@vendor.test>', subject: 'Invoice 1', text: 'Amount due: 120 EUR' });
  expect(await sink.fillBodies({ messages: [{ messageId: row!.id, incoming: whole }], missing: [] })).toEqual({ filled: 1 });
  expect(await probed()).toEqual([{ operation: 'UPDATE', synchronous_commit: 'off' }]);
  // The listed rows, whose commits did not wait, are there and whole: bodies, where filled.
  const rows = await db().mailMessage.findMany({ where: { mailboxId: mailbox.id }, orderBy: { subject: 'asc' }, select: { subject: true, bodyText: true, bodyPending: true } });
  expect(rows.map((message) => [message.subject, message.bodyPending, message.bodyText?.trim() ?? null])).toEqual([
    ['Invoice 1', false, 'Amount due: 120 EUR'],
    ['Invoice 2', true, null],
    ['Invoice 3', false, 'Amount due: 120 EUR'],
    ['Invoice 4', false, 'Amount due: 120 EUR'],
    ['Invoice 5', false, 'Amount due: 120 EUR'],
  ]);
});
