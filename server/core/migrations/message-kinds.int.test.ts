/**
 * The message kinds migration (20261202044317_message_kinds) on messages stored before it: raw
 * headers are not kept, so it reclassifies from what the mirror stored (sender, list flag,
 * attachment types). Rows are written as the old ingest wrote them, then the migration's data
 * statements run over them as `migrate deploy` runs them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { db } from '../db';
import { createMember } from '../../testing/factories';
import { createMailbox, createMessage } from '../../testing/mail-factories';
import { useTestDatabase } from '../../testing/test-database';
import { defaultMigrationsDir } from './migration-files';

await useTestDatabase();

const migration = readFileSync(path.join(defaultMigrationsDir(), '20261202044317_message_kinds', 'migration.sql'), 'utf8');
/** The statements that reclassify stored rows (after the column additions). */
const dataStatements = migration
  .slice(migration.indexOf('-- Stored messages'))
  .split(/;\s*\n/)
  .map((statement) => statement.replace(/^--.*$/gm, '').trim())
  .filter((statement) => statement.length > 0);

type OldSignals = { isAutoReply?: boolean; isMailingList?: boolean; isNoReply?: boolean };

async function storedBeforeTheMigration(mailbox: { id: string }, fromEmail: string, old: OldSignals, attachmentMimes: string[] = []) {
  const message = await createMessage(mailbox, { fromEmail, hasAttachments: attachmentMimes.length > 0 });
  await db().mailMessage.update({
    where: { id: message.id },
    data: { isAutoReply: old.isAutoReply ?? false, isMailingList: old.isMailingList ?? false, isNoReply: old.isNoReply ?? false },
  });
  for (const [position, mime] of attachmentMimes.entries()) {
    await db().mailAttachment.create({ data: { messageId: message.id, position, filename: `part-${position}`, mime, size: 10, disposition: 'attachment' } });
  }
  return message.id;
}

describe('migration message_kinds: stored messages', () => {
  it('turns bulk newsletters, bounces and read receipts stored as auto-replies into their kinds, and finds calendar mail', async () => {
    const member = await createMember();
    const box = await createMailbox(member);
    const newsletter = await storedBeforeTheMigration(box, 'news@shop.test', { isAutoReply: true, isMailingList: true });
    const bounce = await storedBeforeTheMigration(box, 'MAILER-DAEMON@mx.test', { isAutoReply: true, isNoReply: true });
    const receipt = await storedBeforeTheMigration(box, 'anne@client.test', { isAutoReply: true }, ['message/disposition-notification']);
    const vacation = await storedBeforeTheMigration(box, 'lea@client.test', { isAutoReply: true });
    const discussion = await storedBeforeTheMigration(box, 'bruno@list.test', { isMailingList: true });
    const invitation = await storedBeforeTheMigration(box, 'julien@client.test', {}, ['text/calendar', 'application/ics']);
    const personal = await storedBeforeTheMigration(box, 'amaia@client.test', {}, ['application/pdf']);

    for (const statement of dataStatements) await db().$executeRawUnsafe(statement);

    const rows = await db().mailMessage.findMany({
      where: { mailboxId: box.id },
      select: { id: true, isAutoReply: true, isMailingList: true, isNoReply: true, isBulk: true, isDeliveryReport: true, isCalendar: true },
    });
    const kinds = (id: string) => {
      const { id: _id, ...rest } = rows.find((row) => row.id === id)!;
      return rest;
    };
    const nothing = { isAutoReply: false, isMailingList: false, isNoReply: false, isBulk: false, isDeliveryReport: false, isCalendar: false };
    expect(kinds(newsletter)).toEqual({ ...nothing, isMailingList: true, isBulk: true });
    expect(kinds(bounce)).toEqual({ ...nothing, isNoReply: true, isDeliveryReport: true });
    expect(kinds(receipt)).toEqual({ ...nothing, isDeliveryReport: true });
    expect(kinds(vacation)).toEqual({ ...nothing, isAutoReply: true });
    expect(kinds(discussion)).toEqual({ ...nothing, isMailingList: true });
    expect(kinds(invitation)).toEqual({ ...nothing, isCalendar: true });
    expect(kinds(personal)).toEqual(nothing);
  });
});
