/**
 * Killing the sync mid-batch loses nothing and duplicates nothing: a sync process is SIGKILLed while
 * it writes, the sync runs again, and the mirror equals the one an uninterrupted run builds from the
 * same account (same provider keys, same Message-IDs, same counts, every message still `initial`).
 * Two moments: in the middle of the ascending pass, and right after the inbox's newest batch (read
 * first, before the window from its oldest UID up). The inbox's window (600 messages) is above
 * MAIL_HEADERS_FIRST_ABOVE, so its ascending pass reads headers only (the body pass is
 * runner/mail/headers-first.int.test.ts's); the archive's 200 are read whole.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { db } from '../../server/core/db';
import { createMember } from '../../server/testing/factories';
import { createImapMailbox } from '../../server/testing/imap-mailbox';
import { appendMessages, buildRawMessage, type AppendOptions } from '../../server/testing/mail-servers/deliver';
import { startDovecot, type DovecotServer } from '../../server/testing/mail-servers/dovecot';
import { useTestDatabase } from '../../server/testing/test-database';
import { newestFirstCount } from '../../server/mail/provider';
import { MailboxSession } from './session';

const databaseUrl = await useTestDatabase();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let server: DovecotServer;
const user = { user: `crash-${randomUUID().slice(0, 8)}@example.test`, password: `pw-${randomUUID()}` };
const total = 800;

beforeAll(async () => {
  server = await startDovecot({ users: [user] });
  const messages: AppendOptions[] = [];
  for (let index = 0; index < total; index += 1) {
    const raw = await buildRawMessage({
      from: `Sender ${index % 17} <s${index % 17}@example.test>`,
      to: user.user,
      subject: index % 5 === 0 ? `Topic ${index}` : `Re: Topic ${index - (index % 5)}`,
      messageId: `<m${index}@crash.test>`,
      inReplyTo: index % 5 === 0 ? undefined : `<m${index - 1}@crash.test>`,
      text: `Message ${index} `.repeat(40),
    });
    messages.push({ folder: index % 4 === 3 ? 'Archive' : 'INBOX', raw, flags: index % 3 === 0 ? ['\\Seen'] : [] });
  }
  await appendMessages({ server, ...user }, messages);
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

async function snapshot(mailboxId: string) {
  const rows = await db().mailMessage.findMany({ where: { mailboxId }, select: { providerKey: true, messageIdHeader: true, seen: true, ingestedVia: true, threadId: true } });
  const mailbox = await db().mailbox.findUniqueOrThrow({ where: { id: mailboxId } });
  const threads = await db().mailThread.findMany({ where: { mailboxId }, select: { messageCount: true } });
  return {
    keys: rows.map((row) => `${row.providerKey}|${row.messageIdHeader}|${row.seen}`).sort(),
    via: [...new Set(rows.map((row) => row.ingestedVia))],
    threadless: rows.filter((row) => row.threadId === null).length,
    messageCount: mailbox.messageCount,
    threadMessages: threads.reduce((sum, thread) => sum + thread.messageCount, 0),
    threads: threads.length,
  };
}

/**
 * Starts a sync process (batches of 25) and SIGKILLs it once the mirror holds `killWhen` rows. The syncing process
 * itself, with tsx's loader: tsx's CLI would run it as a child of its own, which a SIGKILL of the CLI leaves running,
 * so the "killed" sync went on writing beside the second one (two writers threading the same mail apart).
 */
function killDuringSync(mailboxId: string, killWhen: (count: number) => boolean): Promise<{ killedAt: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'runner/mail/testing/sync-once.ts', mailboxId, '25'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    let killedAt = -1;
    const watch = setInterval(() => {
      void db()
        .mailMessage.count({ where: { mailboxId } })
        .then((count) => {
          if (killedAt < 0 && killWhen(count)) {
            killedAt = count;
            child.kill('SIGKILL');
          }
        });
    }, 5);
    child.on('exit', (code, signal) => {
      clearInterval(watch);
      if (signal === 'SIGKILL') resolve({ killedAt });
      else reject(new Error(`the sync finished before it could be killed (${code}): ${output}`));
    });
  });
}

/** One sync run in this process, retried as the runner does on a transient failure. */
async function syncToEnd(mailboxId: string): Promise<void> {
  const options = { initialDays: 3650, initialMaxPerFolder: 1_000_000, limits: { messages: 25 } };
  // As the runner does: a transient failure (the server slow to answer on a loaded machine) is tried
  // again; anything else fails the test with the classified error in the message.
  for (let attempt = 1; ; attempt += 1) {
    const session = new MailboxSession(mailboxId, options);
    const result = await session.run({ delta: true }, new AbortController().signal);
    await session.close();
    const transient = result.outcome === 'failed' && ['timeout', 'unreachable', 'rate_limit'].includes(result.failure.kind);
    if (transient && attempt < 5) {
      // The runner backs off before trying again; so does the test, or a loaded machine stays loaded.
      await new Promise((resolve) => setTimeout(resolve, 1_000 * attempt));
      continue;
    }
    expect(result, JSON.stringify(result)).toMatchObject({ outcome: 'ok' });
    return;
  }
}

let member: Awaited<ReturnType<typeof createMember>>;
/** The mirror an uninterrupted run builds from the same account, made once. */
let uninterrupted: Promise<Awaited<ReturnType<typeof snapshot>>> | null = null;
function referenceMirror() {
  uninterrupted ??= (async () => {
    const reference = await createImapMailbox(member, server, user, { address: 'reference@example.test' });
    await syncToEnd(reference.id);
    return snapshot(reference.id);
  })();
  return uninterrupted;
}

beforeAll(async () => {
  member = await createMember();
});

async function expectSameMirrorAfterResume(mailboxId: string): Promise<void> {
  await syncToEnd(mailboxId);
  const resumed = await snapshot(mailboxId);
  const reference = await referenceMirror();
  expect(reference.keys).toHaveLength(total);
  expect(resumed.keys).toEqual(reference.keys);
  expect(resumed.via).toEqual(['initial']);
  expect(resumed.threadless).toBe(0);
  expect(resumed.messageCount).toBe(total);
  expect(resumed.threadMessages).toBe(total);
  expect(resumed.threads).toBe(reference.threads);
}

it('SIGKILL mid-batch, then a second sync: the same mirror as an uninterrupted run', async () => {
  const interrupted = await createImapMailbox(member, server, user, { address: 'interrupted@example.test' });
  // Somewhere in the middle: batches committed, more to come.
  const { killedAt } = await killDuringSync(interrupted.id, (count) => count >= 100 && count < total - 100);
  expect(killedAt).toBeGreaterThan(0);
  const partial = await snapshot(interrupted.id);
  expect(partial.keys.length).toBeLessThan(total);
  await expectSameMirrorAfterResume(interrupted.id);
}, 120_000);

it('SIGKILL right after the inbox’s newest batch: the newest mail is there, and a second sync completes the same mirror', async () => {
  const interrupted = await createImapMailbox(member, server, user, { address: 'after-newest@example.test' });
  const { killedAt } = await killDuringSync(interrupted.id, (count) => count >= newestFirstCount);
  expect(killedAt).toBeGreaterThanOrEqual(newestFirstCount);
  const partial = await snapshot(interrupted.id);
  expect(partial.keys.length).toBeLessThan(total);
  // The newest batch landed whole: the inbox's 50 highest UIDs (its last 50 messages appended).
  const inboxIds = Array.from({ length: total }, (_, index) => index).filter((index) => index % 4 !== 3);
  const newestIds = inboxIds.slice(-newestFirstCount).map((index) => `<m${index}@crash.test>`);
  const mirroredIds = new Set(partial.keys.map((key) => key.split('|')[1]));
  expect(newestIds.filter((id) => !mirroredIds.has(id))).toEqual([]);
  // Killed before the ascending pass committed anything, the folder still reads as never synced. Read
  // in one statement: the killed process's last COMMIT may still land after the kill.
  const [state] = await db().$queryRaw<{ mirrored: number; synced: bigint | null }[]>`
    SELECT (SELECT count(*)::int FROM mail_messages WHERE mailbox_id = ${interrupted.id}::uuid) AS mirrored,
           (SELECT synced_uid FROM mail_folders WHERE mailbox_id = ${interrupted.id}::uuid AND key = 'INBOX') AS synced`;
  if (state!.mirrored === newestFirstCount) expect(state!.synced).toBeNull();
  else expect(state!.synced).not.toBeNull();
  await expectSameMirrorAfterResume(interrupted.id);
}, 120_000);
