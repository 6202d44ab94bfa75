import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../../core/db';
import { createMember, type TestMember } from '../../../testing/factories';
import { createMailbox } from '../../../testing/mail-factories';
import { call } from '../../../testing/rest-client';
import { useTestDatabase } from '../../../testing/test-database';

await useTestDatabase();

let admin: TestMember;
let member: TestMember;
let other: TestMember;

beforeAll(async () => {
  admin = await createMember({ role: 'admin' });
  member = await createMember();
  other = await createMember();
});

const preview = (who: TestMember, body: Record<string, unknown>) => call('POST', '/api/v1/contacts/import/preview', { cookie: who.cookie, body });
const commit = (who: TestMember, body: Record<string, unknown>) => call('POST', '/api/v1/contacts/import', { cookie: who.cookie, body });
const exportOf = (who: TestMember, format: 'vcf' | 'csv', query = '') => call('GET', `/api/v1/contacts/export.${format}?${query}`, { cookie: who.cookie });

const vcard = (...lines: string[]) => ['BEGIN:VCARD', 'VERSION:4.0', ...lines, 'END:VCARD'].join('\r\n');

describe('POST /api/v1/contacts/import/preview says what each line becomes and writes nothing', () => {
  it('create, update, unchanged and error lines, with per-line problems in the catalogue style', async () => {
    await call('PUT', '/api/v1/contacts', { cookie: member.cookie, body: { kind: 'contact', value: 'same@preview.example', tone: 'formal' } });
    await call('PUT', '/api/v1/contacts', { cookie: member.cookie, body: { kind: 'contact', value: 'changed@preview.example', tone: 'formal' } });
    const csv = ['value,tone,formality', 'new@preview.example,casual,tu', 'same@preview.example,formal,', 'changed@preview.example,casual,', 'not-an-address@,casual,', 'x@preview.example,shouty,tu', 'NEW@preview.example,neutral,'].join('\n');
    const response = await preview(member, { format: 'csv', file: csv });
    expect(response.status).toBe(200);
    expect(response.body.counts).toEqual({ create: 1, update: 1, unchanged: 1, error: 3 });
    expect(response.body.lines.map((line: { line: number; action: string }) => [line.line, line.action])).toEqual([
      [2, 'create'],
      [3, 'unchanged'],
      [4, 'update'],
      [5, 'error'],
      [6, 'error'],
      [7, 'error'],
    ]);
    expect(response.body.lines[4].problems).toEqual([{ column: 'tone', reason: 'invalid_choice', message: 'tone: one of formal, neutral, casual.', value: 'shouty' }]);
    expect(response.body.lines[5].problems[0]).toMatchObject({ reason: 'duplicate', message: 'The same contact as line 2.' });
    expect(await db().contactEntry.count({ where: { value: 'new@preview.example' } })).toBe(0);
  });

  it('vCard: one line per EMAIL, a KIND:org card gives domains, an unterminated card is an error with its line', async () => {
    const file = [vcard('FN:Two Addresses', 'EMAIL:one@vcf.example', 'EMAIL:two@vcf.example'), vcard('KIND:org', 'FN:Acme', 'EMAIL:sales@acme-vcf.example'), 'BEGIN:VCARD', 'VERSION:4.0', 'EMAIL:lost@vcf.example'].join('\r\n');
    const response = await preview(admin, { format: 'vcard', layer: 'shared', file });
    expect(response.status).toBe(200);
    expect(response.body.lines.map((line: { line: number; kind: string; value: string; action: string; fields: object }) => [line.line, line.kind, line.value, line.action, line.fields])).toEqual([
      [1, 'contact', 'one@vcf.example', 'create', { displayName: 'Two Addresses' }],
      [1, 'contact', 'two@vcf.example', 'create', { displayName: 'Two Addresses' }],
      [7, 'domain', 'acme-vcf.example', 'create', { displayName: 'Acme' }],
      [13, null, null, 'error', {}],
    ]);
    expect(response.body.lines[3].problems[0]).toMatchObject({ column: null, reason: 'vcard_unterminated' });
  });
});

describe('POST /api/v1/contacts/import writes every line or none', () => {
  it('one error line refuses the import: 422 contacts.import_rejected with the lines, nothing written', async () => {
    const csv = ['value,status', 'ok@reject.example,vip', 'bad@reject.example,emperor'].join('\n');
    const refused = await commit(admin, { format: 'csv', layer: 'shared', file: csv });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'contacts.import_rejected', details: { count: 1, rejected: [{ line: 3, problems: [{ column: 'status', reason: 'invalid_choice' }] }] } });
    expect(await db().contactEntry.count({ where: { value: 'ok@reject.example' } })).toBe(0);
  });

  it('skipInvalid writes the valid lines; the shared layer is audited; a second run is unchanged', async () => {
    const csv = ['kind,value,displayName,status,orgNotes', ',ok@skip.example,Ok,vip,First', 'domain,skip.example,Skip Inc,customer,', ',bad@skip.example,Bad,emperor,'].join('\n');
    const done = await commit(admin, { format: 'csv', layer: 'shared', file: csv, skipInvalid: true });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ created: 2, updated: 0, unchanged: 0, rejectedCount: 1 });
    const card = await db().contactSharedCard.findFirst({ where: { entry: { value: 'ok@skip.example' } } });
    expect(card).toMatchObject({ displayName: 'Ok', status: 'vip', orgNotes: 'First', updatedBy: admin.id });
    const audit = await db().auditEntry.findFirst({ where: { action: 'contacts.shared_cards_imported', actorMemberId: admin.id }, orderBy: { at: 'desc' } });
    expect(audit?.details).toMatchObject({ format: 'csv', create: 2, error: 1 });
    const again = await commit(admin, { format: 'csv', layer: 'shared', file: csv, skipInvalid: true });
    expect(again.body).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
  });

  it('a line sets only the fields the file carries; an empty cell clears one', async () => {
    await call('PUT', '/api/v1/contacts', { cookie: member.cookie, body: { kind: 'contact', value: 'merge@import.example', formality: 'vous', tone: 'formal', personalNotes: 'Keep me' } });
    const done = await commit(member, { format: 'csv', file: 'value,tone,formality\nmerge@import.example,casual,\n' });
    expect(done.body).toMatchObject({ created: 0, updated: 1 });
    const card = await db().contactMemberCard.findFirst({ where: { memberId: member.id, entry: { value: 'merge@import.example' } } });
    expect(card).toMatchObject({ tone: 'casual', formality: null, personalNotes: 'Keep me' });
  });

  it('into a mailbox of the member; another member’s mailbox is 404 contacts.mailbox_not_found', async () => {
    const mailbox = await createMailbox(member);
    const theirs = await createMailbox(other);
    const file = vcard('FN:Box', 'EMAIL:box@import.example', 'X-FORMALITY:tu', 'LANG:FR');
    expect((await commit(member, { format: 'vcard', mailboxId: mailbox.id, file })).status).toBe(200);
    expect(await db().contactMailboxCard.findFirst({ where: { mailboxId: mailbox.id, entry: { value: 'box@import.example' } } })).toMatchObject({ formality: 'tu', language: 'fr' });
    for (const mailboxId of [theirs.id, 'not-a-uuid']) {
      const refused = await preview(member, { format: 'vcard', mailboxId, file });
      expect(refused.status).toBe(404);
      expect(refused.body.error.code).toBe('contacts.mailbox_not_found');
    }
    expect(await db().contactMailboxCard.count({ where: { mailboxId: theirs.id } })).toBe(0);
  });

  it('the shared layer is for administrators: 403 auth.forbidden', async () => {
    const refused = await commit(member, { format: 'vcard', layer: 'shared', file: vcard('FN:X', 'EMAIL:x@forbidden-import.example') });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('auth.forbidden');
  });
});

describe('the import’s bounds and hostile files', () => {
  it('more than 2 MiB: 413 request.payload_too_large naming the bound', async () => {
    const file = `value,personalNotes\n${'a@big.example,x\n'.repeat(140_000)}`;
    const refused = await preview(member, { format: 'csv', file });
    expect(refused.status).toBe(413);
    expect(refused.body.error).toMatchObject({ code: 'request.payload_too_large', details: { limit: 'bytes', max: 2 * 1024 * 1024 } });
  });

  it('more than 5,000 entries (a million tiny lines would be too): 400 too_many_entries, stopped at the first one past', async () => {
    const csv = `value\n${Array.from({ length: 5_001 }, (_, index) => `a${index}@many.example`).join('\n')}`;
    const refused = await preview(member, { format: 'csv', file: csv });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toMatchObject({ reason: 'too_many_entries', max: 5_000 });
    // Tiny lines: 'x\n' 1,000,000 times is 2 MB, under the byte bound; the entry bound stops it.
    const tiny = await preview(member, { format: 'csv', file: `value\n${'x\n'.repeat(1_000_000)}` });
    expect(tiny.status).toBe(400);
    expect(tiny.body.error.details.reason).toBe('too_many_entries');
    // A vCard with 5,001 EMAILs in one card counts entries, not cards.
    const many = vcard('FN:Many', ...Array.from({ length: 900 }, (_, index) => `EMAIL:m${index}@many.example`));
    const cards = await preview(member, { format: 'vcard', file: Array.from({ length: 6 }, () => many).join('\r\n') });
    expect(cards.status).toBe(400);
  });

  it('binary, an empty file, CSV headers that do not fit (__proto__, another layer’s field, no value): 400 with the reason', async () => {
    const cases: [Record<string, unknown>, string][] = [
      // NUL never reaches the service (no text with it is storable: 400 before the handler); other controls do.
      [{ format: 'vcard', file: '\u0001\u0002BEGIN:VCARD\u0007' }, 'vcard_binary'],
      [{ format: 'vcard', file: 'hello' }, 'vcard_outside_card'],
      [{ format: 'csv', file: 'value,__proto__\na@proto.example,1' }, 'csv_unknown_header'],
      [{ format: 'csv', file: 'value,displayName\na@proto.example,X' }, 'csv_unknown_header'],
      [{ format: 'csv', file: 'email\na@proto.example' }, 'csv_unknown_header'],
      [{ format: 'csv', file: 'value,mailboxId\na@proto.example,00000000-0000-4000-8000-000000000000' }, 'csv_unknown_header'],
      [{ format: 'csv', file: 'kind\ncontact' }, 'csv_value_missing'],
      [{ format: 'csv', file: 'value,Value\na@proto.example,b@proto.example' }, 'csv_duplicate_header'],
    ];
    for (const [body, reason] of cases) {
      const response = await preview(member, body);
      if (reason === 'vcard_outside_card') {
        // Text that is no card is an error line, not a refused file.
        expect(response.status).toBe(200);
        expect(response.body.lines[0].problems[0].reason).toBe(reason);
        continue;
      }
      expect(response.status, reason).toBe(400);
      expect(response.body.error.details.reason).toBe(reason);
    }
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('unknown body fields are refused (strict body)', async () => {
    const refused = await preview(member, { format: 'csv', file: 'value\na@strict.example', __proto__x: 1 });
    expect(refused.status).toBe(400);
  });
});

describe('GET /api/v1/contacts/export.vcf and .csv stream one layer as vCard 4.0 or CSV', () => {
  it('CSV: the import’s columns, formulas neutralised (raw=true keeps them), and the file imports back unchanged', async () => {
    await call('PUT', '/api/v1/contacts', { cookie: admin.cookie, body: { kind: 'contact', value: 'formula@export.example', layer: 'shared', displayName: '=cmd|\' /C calc\'!A0', orgNotes: '@SUM(1)' } });
    const response = await exportOf(admin, 'csv', 'layer=shared');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="contacts-shared.csv"');
    const text = response.body as string;
    expect(text.split('\n')[0]).toBe('kind,value,displayName,language,status,orgNotes');
    expect(text).toContain('contact,formula@export.example,\'=cmd|\' /C calc\'!A0,,,\'@SUM(1)');
    const raw = await exportOf(admin, 'csv', 'layer=shared&raw=true');
    expect(raw.body).toContain('contact,formula@export.example,=cmd|\' /C calc\'!A0,,,@SUM(1)');
    const back = await preview(admin, { format: 'csv', layer: 'shared', file: text });
    expect(back.body.counts.error).toBe(0);
    expect(back.body.counts.create + back.body.counts.update).toBe(0);
  });

  it('vCard: the member’s own cards only; the file imports back unchanged', async () => {
    await call('PUT', '/api/v1/contacts', { cookie: other.cookie, body: { kind: 'contact', value: 'theirs@export.example', tone: 'casual' } });
    await call('PUT', '/api/v1/contacts', { cookie: member.cookie, body: { kind: 'domain', value: 'mine-export.example', formality: 'vous', tone: 'formal', language: 'de', personalNotes: 'Line 1\nLine 2; with, commas' } });
    const response = await exportOf(member, 'vcf');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/vcard; charset=utf-8');
    const text = response.body as string;
    expect(text).toContain('X-DOMAIN:mine-export.example');
    expect(text).toContain('NOTE:Line 1\\nLine 2\\; with\\, commas');
    expect(text).not.toContain('theirs@export.example');
    const back = await preview(member, { format: 'vcard', file: text });
    expect(back.body.counts).toMatchObject({ create: 0, update: 0, error: 0 });
  });

  it('pages through more cards than one page, in (kind, value) order', async () => {
    const csv = `value\n${Array.from({ length: 1_203 }, (_, index) => `p${String(index).padStart(4, '0')}@pages.example`).join('\n')}`;
    expect((await commit(other, { format: 'csv', file: csv })).body.created).toBe(1_203);
    const text = (await exportOf(other, 'csv')).body as string;
    const values = text.trim().split('\n').slice(1).map((line) => line.split(',')[1]).filter((value) => value!.endsWith('@pages.example'));
    expect(values).toHaveLength(1_203);
    expect(values).toEqual([...values].sort());
  });

  it('another member’s mailbox is 404, an unknown parameter 400', async () => {
    const theirs = await createMailbox(other);
    expect((await exportOf(member, 'csv', `mailboxId=${theirs.id}`)).status).toBe(404);
    expect((await exportOf(member, 'csv', 'constructor=x')).status).toBe(400);
    expect((await exportOf(member, 'csv', 'layer=everyone')).status).toBe(400);
  });
});
