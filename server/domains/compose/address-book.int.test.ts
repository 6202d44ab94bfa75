/**
 * The webmail's compose and the address book (issue 22): the signature appended on request, once, and
 * the recipient suggestions (the address book, then the mailbox's frequent correspondents), scoped to
 * the member.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../core/db';
import { mailboxDefaults, memberCard, sharedCard, signature } from '../../testing/contact-cards';
import { createApiKeyFor, createMember, type TestMember } from '../../testing/factories';
import { createMailbox, createMessage } from '../../testing/mail-factories';
import { call } from '../../testing/rest-client';
import { useTestDatabase } from '../../testing/test-database';

await useTestDatabase();

let member: TestMember;
let other: TestMember;
let mailbox: { id: string; address: string };
let otherMailbox: { id: string };

beforeAll(async () => {
  member = await createMember();
  other = await createMember();
  mailbox = await createMailbox(member, { address: 'me@example.test' });
  otherMailbox = await createMailbox(other, { address: 'them@example.test' });
});

const send = (body: Record<string, unknown>, clientToken = `tok-${randomUUID()}`) =>
  call('POST', '/api/v1/messages/send', { cookie: member.cookie, body: { mailboxId: mailbox.id, clientToken, review: true, ...body } });

describe('compose: the signature', () => {
  it('appends the recipient’s resolved signature (here the mailbox’s default) to text and HTML when asked, once per request', async () => {
    const sig = await signature(member.id, { text: 'Me\nExample Ltd', html: '<p>Me <i>Example</i></p>' });
    await mailboxDefaults(mailbox.id, { signatureId: sig.id });
    const clientToken = `tok-${randomUUID()}`;
    const first = await send({ to: ['client@example.test'], subject: 'Hi', bodyText: 'Hello', bodyHtml: '<p>Hello</p>', signature: true }, clientToken);
    expect(first.status).toBe(202);
    const row = await db().outboundMessage.findUniqueOrThrow({ where: { id: first.body.message.id } });
    expect(row.bodyText).toBe('Hello\n\n-- \nMe\nExample Ltd');
    expect(row.bodyHtml).toContain('<p>Me <i>Example</i></p>');
    expect(row.bodyHtml!.match(/data-mail-signature/g)).toHaveLength(1);
    // The same request again answers the same item, signed once.
    const again = await send({ to: ['client@example.test'], subject: 'Hi', bodyText: 'Hello', bodyHtml: '<p>Hello</p>', signature: true }, clientToken);
    expect(again.body.message.id).toBe(first.body.message.id);
    expect((await db().outboundMessage.findUniqueOrThrow({ where: { id: first.body.message.id } })).bodyText).toBe('Hello\n\n-- \nMe\nExample Ltd');
  });

  it('adds nothing without `signature` (the API’s default), nor to a body already signed', async () => {
    const plain = await send({ to: ['client@example.test'], bodyText: 'Hello' });
    expect((await db().outboundMessage.findUniqueOrThrow({ where: { id: plain.body.message.id } })).bodyText).toBe('Hello');
    const signed = await send({ to: ['client@example.test'], bodyText: 'Hello\n\n-- \nMe\nExample Ltd', signature: true });
    expect((await db().outboundMessage.findUniqueOrThrow({ where: { id: signed.body.message.id } })).bodyText).toBe('Hello\n\n-- \nMe\nExample Ltd');
  });
});

describe('GET /api/v1/mailboxes/{id}/recipient-suggestions', () => {
  const suggest = (query: string, as: TestMember = member, id = mailbox.id) => call('GET', `/api/v1/mailboxes/${id}/recipient-suggestions?${query}`, { cookie: as.cookie });

  it('the address book first (with the resolved name and status), then the mailbox’s frequent correspondents; each address once', async () => {
    await sharedCard('contact', 'dora@acme.test', { displayName: 'Dora Acme', status: 'vip' });
    await memberCard(member.id, 'contact', 'dan@acme.test', { formality: 'tu' });
    // Another member's card never suggests.
    await memberCard(other.id, 'contact', 'secret@acme.test', { formality: 'vous' });
    for (let index = 0; index < 3; index += 1) await createMessage(mailbox, { fromEmail: 'Frequent@Acme.test', fromName: 'Fred Frequent' });
    await createMessage(mailbox, { fromEmail: 'rare@acme.test', fromName: 'Rare' });
    const sent = await createMessage(mailbox, { fromEmail: mailbox.address });
    await db().mailMessage.update({ where: { id: sent.id }, data: { isFromSelf: true, recipients: { to: [{ name: 'Dora', email: 'dora@acme.test' }, { email: 'outgoing@acme.test' }], cc: [] } } });
    await createMessage(otherMailbox, { fromEmail: 'elsewhere@acme.test' });

    const answer = await suggest('q=acme');
    expect(answer.status).toBe(200);
    const items = answer.body.items as { address: string; source: string; messages: number; displayName: string | null; status: string | null; name: string | null }[];
    expect(items.map((item) => item.address)).toEqual(['dan@acme.test', 'dora@acme.test', 'frequent@acme.test', 'outgoing@acme.test', 'rare@acme.test']);
    expect(items[1]).toMatchObject({ source: 'address_book', name: 'Dora Acme', displayName: 'Dora Acme', status: 'vip', messages: 1 });
    expect(items[2]).toMatchObject({ source: 'correspondent', name: 'Fred Frequent', messages: 3, status: null });
    expect(items.map((item) => item.address)).not.toContain('secret@acme.test');
    expect(items.map((item) => item.address)).not.toContain('elsewhere@acme.test');
    expect(items.map((item) => item.address)).not.toContain(mailbox.address);

    const byName = await suggest('q=fred');
    expect(byName.body.items.map((item: { address: string }) => item.address)).toEqual(['frequent@acme.test']);
    const bounded = await suggest('q=acme&limit=2');
    expect(bounded.body.items).toHaveLength(2);
    // `%` and `_` are matched literally.
    expect((await suggest('q=%25')).body.items).toEqual([]);
  });

  it('another member’s mailbox (or a malformed id) is 404 mailbox.not_found; limit out of bounds is 400; the key scope is messages:read', async () => {
    expect((await suggest('q=a', member, otherMailbox.id)).body.error.code).toBe('mailbox.not_found');
    expect((await suggest('q=a', member, 'nope')).status).toBe(404);
    expect((await suggest('limit=21')).status).toBe(400);
    const { secret: key } = await createApiKeyFor(member, ['contacts:read']);
    expect((await call('GET', `/api/v1/mailboxes/${mailbox.id}/recipient-suggestions`, { key })).status).toBe(403);
    const { secret: reader } = await createApiKeyFor(member, ['messages:read']);
    expect((await call('GET', `/api/v1/mailboxes/${mailbox.id}/recipient-suggestions`, { key: reader })).status).toBe(200);
  });
});
