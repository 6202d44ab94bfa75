import { describe, expect, it } from 'vitest';
import { isAutoReply, isFromSelf, isMailingList, isNoReply, listIdOf, signalsOf, type HeaderValues } from './signals';

const headers = (entries: Record<string, string | string[]>): HeaderValues =>
  new Map(Object.entries(entries).map(([name, value]) => [name, Array.isArray(value) ? value : [value]]));

describe('isAutoReply', () => {
  it.each([
    [{}, false],
    [{ 'auto-submitted': 'no' }, false],
    [{ 'auto-submitted': 'No; comment' }, false],
    [{ 'auto-submitted': 'auto-replied' }, true],
    [{ 'auto-submitted': 'auto-generated' }, true],
    [{ 'auto-submitted': 'auto-notified; owner-email="a@b"' }, true],
    [{ 'auto-submitted': '' }, false],
    [{ 'x-autoreply': 'yes' }, true],
    [{ 'x-autoreply': '' }, true],
    [{ 'x-autoreply': 'no' }, false],
    [{ 'x-autorespond': 'vacation' }, true],
    [{ 'x-autoresponder': 'true' }, true],
    [{ precedence: 'auto_reply' }, true],
    [{ precedence: 'bulk' }, true],
    [{ precedence: 'JUNK' }, true],
    [{ precedence: 'list' }, false],
    [{ precedence: 'first-class' }, false],
    [{ 'x-precedence': 'bulk' }, true],
    [{ 'x-auto-response-suppress': 'All' }, false],
    [{ 'content-type': 'multipart/report; report-type=delivery-status; boundary="x"' }, true],
    [{ 'content-type': 'multipart/mixed; boundary="x"' }, false],
    [{ 'auto-submitted': ['no', 'auto-replied'] }, true],
  ] as const)('%j → %s', (entries, expected) => {
    expect(isAutoReply(headers(entries as Record<string, string | string[]>))).toBe(expected);
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

it('signalsOf combines the four', () => {
  expect(signalsOf({ headers: headers({ 'list-id': 'x' }), fromEmail: 'noreply@x.test', mailboxAddress: 'noreply@x.test' })).toEqual({
    isAutoReply: false,
    isNoReply: true,
    isMailingList: true,
    isFromSelf: true,
  });
});
