import { describe, expect, it } from 'vitest';
import { answerContext, answerSubject, parseAddressList, uniqueAddresses, type OriginalMessage } from './context';

const message = (overrides: Partial<OriginalMessage> = {}): OriginalMessage => ({
  id: 'm1',
  subject: 'Plan',
  fromName: 'Alice',
  fromEmail: 'alice@example.test',
  dateHeader: 'Mon, 2 Mar 2026 10:00:00 +0000',
  receivedAt: new Date('2026-03-02T10:00:00Z'),
  bodyText: 'Hi\nthere',
  recipients: { to: [{ email: 'me@example.test' }, { email: 'bob@example.test' }], cc: [{ email: 'carol@example.test' }], replyTo: [] },
  attachments: [{ position: 1, filename: 'a.pdf', mime: 'application/pdf', size: 3 }],
  ...overrides,
});

describe('answerSubject', () => {
  it.each([
    ['Plan', 'reply', 'Re: Plan'],
    ['Re: Plan', 'reply', 'Re: Plan'],
    ['RE:Plan', 'replyAll', 'RE:Plan'],
    ['Plan', 'forward', 'Fwd: Plan'],
    ['Fwd: Plan', 'forward', 'Fwd: Plan'],
    [null, 'reply', 'Re:'],
  ] as const)('%s (%s) → %s', (subject, mode, expected) => expect(answerSubject(subject, mode)).toBe(expected));
});

describe('answerContext', () => {
  it('reply goes to the sender, or to Reply-To when there is one', () => {
    expect(answerContext(message(), 'me@example.test', 'reply')).toMatchObject({ to: ['alice@example.test'], cc: [], attachments: [] });
    expect(answerContext(message({ recipients: { to: [], cc: [], replyTo: [{ email: 'list@example.test' }] } }), 'me@example.test', 'reply').to).toEqual(['list@example.test']);
  });

  it('reply all adds To and Cc without the mailbox’s address, each once (case-insensitive)', () => {
    const context = answerContext(message({ recipients: { to: [{ email: 'ME@example.test' }, { email: 'Alice@example.test' }, { email: 'bob@example.test' }], cc: [{ email: 'BOB@example.test' }], replyTo: [] } }), 'me@example.test', 'replyAll');
    expect(context).toMatchObject({ to: ['alice@example.test'], cc: ['bob@example.test'] });
  });

  it('answering one’s own sent message goes to its recipients', () => {
    expect(answerContext(message({ fromEmail: 'me@example.test' }), 'me@example.test', 'reply').to).toEqual(['bob@example.test']);
  });

  it('forward has no recipient, the attachments and a forwarded header', () => {
    const context = answerContext(message(), 'me@example.test', 'forward');
    expect(context).toMatchObject({ to: [], cc: [], subject: 'Fwd: Plan', attachments: [{ messageId: 'm1', position: 1 }] });
    expect(context.quotedText).toContain('From: Alice <alice@example.test>');
  });

  it('quotes the body line by line', () => {
    expect(answerContext(message(), 'me@example.test', 'reply').quotedText).toContain('wrote:\n> Hi\n> there');
  });
});

describe('parseAddressList', () => {
  it.each([
    ['a@example.test, b@example.test; c@example.test', ['a@example.test', 'b@example.test', 'c@example.test'], []],
    [['Bob <bob@example.test>', 'bob@example.test'], ['bob@example.test'], []],
    ['nope, x@example.test', ['x@example.test'], ['nope']],
    ['', [], []],
    [null, [], []],
  ] as const)('%j', (value, addresses, invalid) => expect(parseAddressList(value as never)).toEqual({ addresses, invalid }));

  it('uniqueAddresses drops excluded and repeated ones', () => {
    expect(uniqueAddresses(['A@x.test', 'a@x.test', 'b@x.test'], ['B@X.test'])).toEqual(['A@x.test']);
  });
});
