import { describe, expect, it } from 'vitest';
import { isAutoSubmitted, isBulkMail, isCalendar, isDeliveryReport, isFromSelf, isMailingList, isNoReply, listIdOf, signalsOf, type HeaderValues } from './signals';

const headers = (entries: Record<string, string | string[]>): HeaderValues =>
  new Map(Object.entries(entries).map(([name, value]) => [name, Array.isArray(value) ? value : [value]]));

describe('isAutoSubmitted (RFC 3834 automatic mail)', () => {
  it.each([
    [{}, false],
    [{ 'auto-submitted': 'no' }, false],
    [{ 'auto-submitted': 'No; comment' }, false],
    [{ 'auto-submitted': 'auto-replied' }, true],
    [{ 'auto-submitted': 'auto-generated' }, true],
    [{ 'auto-submitted': 'auto-notified; owner-email="a@b"' }, true],
    [{ 'auto-submitted': 'auto-replied (zimbra; vacation)' }, true],
    [{ 'auto-submitted': 'auto-replied(vacation)' }, true],
    [{ 'auto-submitted': '' }, false],
    [{ 'x-autoreply': 'yes' }, true],
    [{ 'x-autoreply': '' }, true],
    [{ 'x-autoreply': 'no' }, false],
    [{ 'x-autorespond': 'vacation' }, true],
    [{ 'x-autoresponder': 'true' }, true],
    [{ precedence: 'auto_reply' }, true],
    [{ 'x-precedence': 'auto_reply' }, true],
    // Precedence bulk, junk and list say how much mail a sender sends, not that it answers automatically.
    [{ precedence: 'bulk' }, false],
    [{ precedence: 'JUNK' }, false],
    [{ precedence: 'list' }, false],
    [{ precedence: 'first-class' }, false],
    [{ 'x-precedence': 'bulk' }, false],
    // Exchange: its out-of-office shape, not either header alone.
    [{ 'x-ms-exchange-inbox-rules-loop': 'me@x.test', 'x-auto-response-suppress': 'All' }, true],
    [{ 'x-ms-exchange-inbox-rules-loop': 'me@x.test' }, false],
    [{ 'x-auto-response-suppress': 'All' }, false],
    [{ 'content-type': 'multipart/report; report-type=delivery-status; boundary="x"' }, false],
    [{ 'auto-submitted': ['no', 'auto-replied'] }, true],
  ] as const)('%j → %s', (entries, expected) => {
    expect(isAutoSubmitted(headers(entries as Record<string, string | string[]>))).toBe(expected);
  });
});

describe('isDeliveryReport', () => {
  it.each([
    [{}, 'alice@example.test', false],
    [{ 'content-type': 'multipart/report; report-type=delivery-status; boundary="x"' }, 'alice@example.test', true],
    [{ 'content-type': 'Multipart/Report; report-type=disposition-notification' }, 'alice@example.test', true],
    [{ 'content-type': 'multipart/mixed; boundary="x"' }, 'alice@example.test', false],
    [{ 'x-failed-recipients': 'gone@example.test' }, 'postmaster@example.test', true],
    [{ 'x-failed-recipients': ' ' }, 'alice@example.test', false],
    [{}, 'MAILER-DAEMON@example.test', true],
    [{}, 'mailer-daemon', true],
    [{}, 'postmaster@example.test', false],
    [{}, null, false],
  ] as const)('%j from %s → %s', (entries, from, expected) => {
    expect(isDeliveryReport(headers(entries as Record<string, string | string[]>), from)).toBe(expected);
  });
});

describe('isBulkMail', () => {
  it.each([
    [{}, false],
    [{ precedence: 'bulk' }, true],
    [{ precedence: 'Junk' }, true],
    [{ 'x-precedence': 'bulk' }, true],
    [{ precedence: 'list' }, false],
    // A one-way list: one can leave it, not write to it.
    [{ 'list-unsubscribe': '<mailto:u@example.test>' }, true],
    [{ 'list-id': '<news.example.test>' }, true],
    [{ 'list-id': '<dev.example.test>', 'list-post': '<mailto:dev@example.test>' }, false],
    [{ 'list-id': '<repo.example.test>', precedence: 'list' }, false],
    [{ 'list-id': '<repo.example.test>', 'list-post': '<mailto:dev@example.test>', precedence: 'bulk' }, true],
    [{ 'list-unsubscribe': '  ' }, false],
  ] as const)('%j → %s', (entries, expected) => {
    expect(isBulkMail(headers(entries as Record<string, string | string[]>))).toBe(expected);
  });
});

describe('isCalendar', () => {
  it.each([
    [{}, [], false],
    [{ 'content-type': 'text/calendar; method=REPLY; charset="utf-8"' }, [], true],
    [{ 'content-type': 'multipart/alternative; boundary="x"' }, ['text/calendar'], true],
    [{ 'content-type': 'multipart/mixed; boundary="x"' }, ['application/pdf', 'TEXT/CALENDAR'], true],
    [{ 'content-type': 'multipart/mixed; boundary="x"' }, ['application/pdf'], false],
  ] as const)('%j with parts %j → %s', (entries, parts, expected) => {
    expect(isCalendar(headers(entries as Record<string, string | string[]>), parts)).toBe(expected);
  });
});

describe('isNoReply', () => {
  it.each([
    ['noreply@example.test', true],
    ['no-reply@example.test', true],
    ['No_Reply@example.test', true],
    ['no.reply@example.test', true],
    ['noreply-billing@example.test', true],
    ['no-reply+abc@example.test', true],
    ['donotreply@example.test', true],
    ['do-not-reply@example.test', true],
    ['do_not_reply@example.test', true],
    ['dont-reply@example.test', true],
    ['MAILER-DAEMON@example.test', true],
    ['postmaster@example.test', true],
    ['bounces@example.test', true],
    ['bounce@example.test', true],
    ['alice@example.test', false],
    ['reply@example.test', false],
    ['noreplyexample.test', true],
    ['snoreply@example.test', false],
    ['postmaster-team@example.test', false],
    ['+tag@example.test', false],
    ['', false],
    [null, false],
  ] as const)('%s → %s', (address, expected) => {
    expect(isNoReply(address)).toBe(expected);
  });
});

describe('isMailingList', () => {
  it.each([
    [{}, false],
    [{ 'list-id': 'Dev list <dev.lists.example.test>' }, true],
    [{ 'list-unsubscribe': '<mailto:unsub@example.test>' }, true],
    [{ 'list-post': '<mailto:dev@example.test>' }, true],
    [{ 'list-id': '  ' }, false],
    [{ precedence: 'list' }, true],
    [{ precedence: 'bulk' }, false],
  ] as const)('%j → %s', (entries, expected) => {
    expect(isMailingList(headers(entries))).toBe(expected);
  });
});

describe('listIdOf', () => {
  it.each([
    [{}, null],
    [{ 'list-id': 'Dev list <Dev.Lists.Example.TEST>' }, 'dev.lists.example.test'],
    [{ 'list-id': '<dev.lists.example.test>' }, 'dev.lists.example.test'],
    [{ 'list-id': '"The <weird> list" <real.example.test>' }, 'real.example.test'],
    [{ 'list-id': 'bare-id.example.test' }, 'bare-id.example.test'],
    [{ 'list-id': 'no brackets and spaces' }, null],
    [{ 'list-id': '<>' }, null],
    [{ 'list-id': '<has space.example>' }, null],
    [{ 'list-id': '<double..dot.example>' }, null],
    [{ 'list-id': `<${'a'.repeat(256)}>` }, null],
    [{ 'list-id': `<${'a'.repeat(255)}>` }, 'a'.repeat(255)],
    [{ 'list-id': ['  ', 'Second <second.example>'] }, 'second.example'],
    [{ 'list-unsubscribe': '<mailto:unsub@example.test>' }, null],
  ] as const)('%j → %s', (entries, expected) => {
    expect(listIdOf(headers(entries as Record<string, string | string[]>))).toBe(expected);
  });
});

describe('isFromSelf', () => {
  it.each([
    ['me@example.test', 'me@example.test', true],
    ['ME@Example.Test', 'me@example.test', true],
    [' me@example.test ', 'me@example.test', true],
    ['me+tag@example.test', 'me@example.test', false],
    ['other@example.test', 'me@example.test', false],
    [null, 'me@example.test', false],
  ] as const)('%s vs %s → %s', (from, mailbox, expected) => {
    expect(isFromSelf(from, mailbox)).toBe(expected);
  });
});

describe('signalsOf', () => {
  it('combines them', () => {
    expect(signalsOf({ headers: headers({ 'list-id': 'x' }), fromEmail: 'noreply@x.test', mailboxAddress: 'noreply@x.test' })).toEqual({
      isAutoReply: false,
      isNoReply: true,
      isMailingList: true,
      isFromSelf: true,
      isBulk: true,
      isDeliveryReport: false,
      isCalendar: false,
    });
  });

  it('a newsletter with List-Id and Precedence: bulk is bulk list mail, not an auto-reply', () => {
    const newsletter = headers({ 'list-id': 'News <news.example.test>', precedence: 'bulk' });
    expect(signalsOf({ headers: newsletter, fromEmail: 'news@example.test', mailboxAddress: 'me@x.test' })).toMatchObject({
      isAutoReply: false,
      isMailingList: true,
      isBulk: true,
    });
  });

  it('a vacation reply stamped Precedence: bulk is an auto-reply, not bulk mail', () => {
    const vacation = headers({ 'auto-submitted': 'auto-replied', precedence: 'bulk' });
    expect(signalsOf({ headers: vacation, fromEmail: 'lea@example.test', mailboxAddress: 'me@x.test' })).toMatchObject({ isAutoReply: true, isBulk: false });
  });

  it('a bounce stamped Auto-Submitted is a delivery report, not an auto-reply', () => {
    const bounce = headers({ 'auto-submitted': 'auto-replied', 'content-type': 'multipart/report; report-type=delivery-status' });
    expect(signalsOf({ headers: bounce, fromEmail: 'mailer-daemon@example.test', mailboxAddress: 'me@x.test' })).toMatchObject({
      isAutoReply: false,
      isDeliveryReport: true,
      isNoReply: true,
      isBulk: false,
    });
  });
});
