import { describe, expect, it } from 'vitest';
import { planThreads, threadingIds, type KnownMessage, type KnownThread, type ThreadingMessage } from './plan';

const day = 24 * 3600 * 1000;
const base = Date.UTC(2026, 0, 10);

function message(id: string, fields: Partial<ThreadingMessage> = {}): ThreadingMessage {
  return { id, messageId: `<${id}@x>`, inReplyTo: null, references: [], subjectKey: null, replyPrefix: false, receivedAt: new Date(base), ...fields };
}

function plan(messages: ThreadingMessage[], known: { messages?: KnownMessage[]; threads?: KnownThread[] } = {}) {
  let next = 0;
  const result = planThreads(messages, { messages: known.messages ?? [], threads: known.threads ?? [] }, () => `new${(next += 1)}`);
  return { ...result, assignments: Object.fromEntries(result.assignments) };
}

describe('planThreads: identity', () => {
  it('a lone message opens a thread', () => {
    expect(plan([message('a')])).toEqual({ assignments: { a: 'new1' }, created: [{ threadId: 'new1', firstMessageId: 'a' }], merges: [] });
  });

  it('a reply joins the thread of the mirrored message it answers (In-Reply-To)', () => {
    const result = plan([message('b', { inReplyTo: '<a@x>' })], { messages: [{ threadId: 'T1', ids: ['<a@x>'] }] });
    expect(result.assignments).toEqual({ b: 'T1' });
    expect(result.created).toEqual([]);
  });

  it('References alone link too', () => {
    expect(plan([message('c', { references: ['<root@x>', '<a@x>'] })], { messages: [{ threadId: 'T1', ids: ['<root@x>'] }] }).assignments).toEqual({ c: 'T1' });
  });

  it('an original arriving after its reply joins the reply\'s thread', () => {
    expect(plan([message('a')], { messages: [{ threadId: 'T9', ids: ['<b@x>', '<a@x>'] }] }).assignments).toEqual({ a: 'T9' });
  });

  it('replies to the same unmirrored original group together within a batch', () => {
    const result = plan([message('b', { inReplyTo: '<gone@x>' }), message('c', { references: ['<gone@x>'] })]);
    expect(result.assignments.b).toBe(result.assignments.c);
    expect(result.created).toHaveLength(1);
  });

  it('a message and its reply in one batch share one new thread', () => {
    const result = plan([message('a'), message('b', { inReplyTo: '<a@x>', receivedAt: new Date(base + 1000) })]);
    expect(result.assignments).toEqual({ a: 'new1', b: 'new1' });
  });

  it('a message linking two threads merges them into the smaller id', () => {
    const result = plan([message('m', { references: ['<a@x>', '<b@x>'] })], {
      messages: [
        { threadId: 'T2', ids: ['<b@x>'] },
        { threadId: 'T1', ids: ['<a@x>'] },
      ],
    });
    expect(result.assignments).toEqual({ m: 'T1' });
    expect(result.merges).toEqual([{ into: 'T1', from: ['T2'] }]);
  });

  it('the same Message-ID seen in two folders lands in one thread', () => {
    expect(plan([message('copy', { messageId: '<a@x>' })], { messages: [{ threadId: 'T1', ids: ['<a@x>'] }] }).assignments).toEqual({ copy: 'T1' });
  });

  it('messages without any id stay apart', () => {
    const result = plan([message('a', { messageId: null }), message('b', { messageId: null })]);
    expect(result.created).toHaveLength(2);
  });
});

describe('planThreads: subject fallback', () => {
  const thread: KnownThread = { threadId: 'T1', subjectKey: 'budget', lastMessageAt: new Date(base - 5 * day) };

  it.each([
    ['a reply-prefixed message within the window joins', { subjectKey: 'budget', replyPrefix: true }, [thread], 'T1'],
    ['a message with unknown references joins', { subjectKey: 'budget', inReplyTo: '<unknown@x>' }, [thread], 'T1'],
    ['no reply signs: a new thread', { subjectKey: 'budget' }, [thread], 'new1'],
    ['outside the window: a new thread', { subjectKey: 'budget', replyPrefix: true, receivedAt: new Date(base + 30 * day) }, [thread], 'new1'],
    ['at the edge of the window: joins', { subjectKey: 'budget', replyPrefix: true, receivedAt: new Date(base + 25 * day) }, [thread], 'T1'],
    ['generic subject (no key): a new thread', { subjectKey: null, replyPrefix: true }, [thread], 'new1'],
    ['another subject: a new thread', { subjectKey: 'other', replyPrefix: true }, [thread], 'new1'],
  ] as const)('%s', (_name, fields, threads, expected) => {
    expect(plan([message('r', fields as Partial<ThreadingMessage>)], { threads: [...threads] }).assignments).toEqual({ r: expected });
  });

  it('picks the most recent matching thread', () => {
    const older = { threadId: 'T0', subjectKey: 'budget', lastMessageAt: new Date(base - 20 * day) };
    expect(plan([message('r', { subjectKey: 'budget', replyPrefix: true })], { threads: [older, thread] }).assignments).toEqual({ r: 'T1' });
  });

  it('identity wins over subject', () => {
    const result = plan([message('r', { subjectKey: 'budget', replyPrefix: true, inReplyTo: '<a@x>' })], { messages: [{ threadId: 'T5', ids: ['<a@x>'] }], threads: [thread] });
    expect(result.assignments).toEqual({ r: 'T5' });
  });

  it('a reply later in the same batch joins the original by subject', () => {
    const result = plan([
      message('reply', { subjectKey: 'launch', replyPrefix: true, receivedAt: new Date(base + day), messageId: '<r@x>' }),
      message('original', { subjectKey: 'launch', receivedAt: new Date(base) }),
    ]);
    expect(result.assignments.reply).toBe(result.assignments.original);
  });
});

it('threadingIds lists every id once', () => {
  expect(threadingIds([message('a', { inReplyTo: '<p@x>', references: ['<p@x>', '<r@x>'] })]).sort()).toEqual(['<a@x>', '<p@x>', '<r@x>']);
});
