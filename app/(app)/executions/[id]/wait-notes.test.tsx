// @vitest-environment jsdom
/**
 * Issue 24 §1 on a run's page: a step waiting for a reply says so, until its deadline, with a link to
 * the conversation it watches; once it ended, the step says whether a reply ended it (who, the subject,
 * a link to the reply) or the deadline did. Other waits say until when (a Wait) or what for (an
 * approval). English and French.
 */
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeRouter, renderWithTrpc } from '@/app/testing/render-with-trpc';
import { formatDateTime } from '@/app/lib/format';
import type { Step } from '../_lib/api';
import { replyWaitEndOf, waitKindOf, watchedConversationHref } from '../_lib/waits';
import { StepDetail } from './step-detail';
import { WaitingNote } from './wait-notes';

afterEach(cleanup);

const mailboxId = '0b3c8d7e-0000-4000-8000-000000000001';
const deadline = '2026-12-07T17:00:00.000Z';
const triggerData = { id: 'msg-1', mailboxId, threadId: 'thread-9', subject: 'Quote for 40 chairs', from: { name: 'Ann Client', email: 'ann@client.example' } };

function step(overrides: Partial<Step>): Step {
  return {
    id: '5b0f9a52-0000-4000-8000-000000000009',
    nodeId: 'wait',
    nodeType: 'flow.wait_for_reply',
    status: 'waiting',
    attempt: 1,
    output: null,
    data: null,
    dataTruncated: false,
    durationMs: null,
    effects: [],
    llmSkipped: false,
    attempts: [],
    warnings: [],
    input: { amount: 2, unit: 'days' },
    pinned: false,
    disabled: false,
    error: null,
    ...overrides,
  };
}

const reply = {
  id: 'msg-2',
  mailboxId,
  threadId: 'thread-9',
  subject: 'Re: Quote for 40 chairs',
  from: { name: 'Bob Buyer', email: 'bob@client.example' },
  receivedAt: '2026-12-04T09:30:00.000Z',
};

function renderStep(value: Step, locale: 'en' | 'fr' = 'en') {
  renderWithTrpc(<StepDetail step={value} nodeName="Wait two days" triggerData={triggerData} />, {}, { locale, router: fakeRouter() });
  return screen.getByTestId('step-detail');
}

describe('a step waiting for a reply', () => {
  it('says it waits for a reply in this conversation until its deadline, and links the conversation', () => {
    const detail = renderStep(step({ waitUntil: deadline }));
    const note = within(detail).getByTestId('step-waiting');
    expect(note.textContent).toContain(`Waiting for a reply in this conversation until ${formatDateTime(deadline, 'en')}.`);
    expect(within(note).getByRole('link', { name: 'Open the conversation' }).getAttribute('href')).toBe(`/messages?mailbox=${mailboxId}&thread=thread-9`);
    expect(within(detail).queryByTestId('step-reply-end')).toBeNull();
  });

  it('says it in French', () => {
    const detail = renderStep(step({ waitUntil: deadline }), 'fr');
    expect(within(detail).getByTestId('step-waiting').textContent).toContain(`En attente d’une réponse dans cette conversation jusqu’au ${formatDateTime(deadline, 'fr')}.`);
    expect(within(detail).getByRole('link', { name: 'Ouvrir la conversation' })).toBeTruthy();
  });

  it('links no conversation when it watches another message than the trigger', () => {
    const detail = renderStep(step({ waitUntil: deadline, input: { messageId: 'msg-77', amount: 2, unit: 'days' } }));
    expect(within(detail).getByTestId('step-waiting').textContent).toContain('Waiting for a reply');
    expect(within(detail).queryByTestId('wait-conversation-link')).toBeNull();
  });
});

describe('a wait for a reply that ended', () => {
  it('shows the reply that ended it: who, when, the subject and a link to it', () => {
    const detail = renderStep(
      step({ status: 'succeeded', output: 'replied', durationMs: 60_000, data: { replied: true, reply, messageId: 'msg-1', waitedFrom: '2026-12-03T09:00:00.000Z', deadline } }),
    );
    const end = within(detail).getByTestId('step-reply-end');
    expect(end.querySelector('[data-outcome]')?.getAttribute('data-outcome')).toBe('replied');
    expect(end.textContent).toContain('Ended by a reply');
    expect(end.textContent).toContain(`Bob Buyer <bob@client.example> replied on ${formatDateTime(reply.receivedAt, 'en')}.`);
    expect(end.textContent).toContain('Subject: Re: Quote for 40 chairs');
    expect(within(end).getByRole('link', { name: 'Open the reply' }).getAttribute('href')).toBe(`/messages?mailbox=${mailboxId}&thread=thread-9`);
    expect(within(detail).queryByTestId('step-waiting')).toBeNull();
  });

  it('says when the deadline ended it, in English and French', () => {
    const data = { replied: false, reply: null, messageId: 'msg-1', waitedFrom: '2026-12-03T09:00:00.000Z', deadline };
    const detail = renderStep(step({ status: 'succeeded', output: 'timeout', data }));
    const end = within(detail).getByTestId('step-reply-end');
    expect(end.querySelector('[data-outcome]')?.getAttribute('data-outcome')).toBe('timeout');
    expect(end.textContent).toContain(`Nobody replied before ${formatDateTime(deadline, 'en')}: the run went on by the “no reply” output.`);
    cleanup();
    const french = renderStep(step({ status: 'succeeded', output: 'timeout', data }), 'fr');
    expect(within(french).getByTestId('step-reply-end').textContent).toContain('Pas de réponse à temps');
  });
});

describe('other waits', () => {
  it('says until when a Wait waits, and what an approval waits for; nothing without a deadline', () => {
    renderWithTrpc(
      <>
        <WaitingNote step={step({ nodeId: 'pause', nodeType: 'flow.wait', waitUntil: deadline })} stepName="Pause" triggerData={triggerData} testId="wait-time" />
        <WaitingNote step={step({ nodeId: 'approve', nodeType: 'approval.request', waitUntil: deadline })} triggerData={null} testId="wait-decision" />
        <WaitingNote step={step({ nodeId: 'open', nodeType: 'approval.request' })} triggerData={null} testId="wait-open" />
        <WaitingNote step={step({ status: 'succeeded', waitUntil: deadline })} triggerData={triggerData} testId="wait-done" />
      </>,
      {},
      { router: fakeRouter() },
    );
    expect(screen.getByTestId('wait-time').textContent).toBe(`Waiting until ${formatDateTime(deadline, 'en')}. Step “Pause”.`);
    expect(within(screen.getByTestId('wait-time')).queryByRole('link')).toBeNull();
    expect(screen.getByTestId('wait-decision').textContent).toBe(`Waiting for a decision until ${formatDateTime(deadline, 'en')}.`);
    expect(screen.queryByTestId('wait-open')).toBeNull();
    expect(screen.queryByTestId('wait-done')).toBeNull();
  });
});

describe('reading waits from steps', () => {
  it('tells the kind of wait from the node type, with or without its version', () => {
    expect(['flow.wait_for_reply', 'flow.wait_for_reply@1', 'approval.request@1', 'flow.wait'].map(waitKindOf)).toEqual(['reply', 'reply', 'decision', 'time']);
  });

  it('reads what the step stored defensively', () => {
    const base = { nodeType: 'flow.wait_for_reply', status: 'succeeded', input: {} };
    expect(replyWaitEndOf({ ...base, output: 'replied', data: { reply: 'odd' } })).toEqual({ replied: true, reply: null });
    expect(replyWaitEndOf({ ...base, output: 'replied', data: { reply: { from: { email: 'bob@client.example' } } } })).toEqual({
      replied: true,
      reply: { fromName: null, fromEmail: 'bob@client.example', subject: null, receivedAt: null, href: null },
    });
    expect(replyWaitEndOf({ ...base, output: 'timeout', data: null })).toEqual({ replied: false, deadline: null });
    expect(replyWaitEndOf({ ...base, status: 'failed', output: null, data: null })).toBeNull();
    expect(replyWaitEndOf({ ...base, nodeType: 'flow.wait', output: 'main', data: {} })).toBeNull();
  });

  it('links the watched conversation only when it is the trigger’s', () => {
    const wait = { nodeType: 'flow.wait_for_reply', input: {} };
    expect(watchedConversationHref(wait, triggerData)).toBe(`/messages?mailbox=${mailboxId}&thread=thread-9`);
    expect(watchedConversationHref({ ...wait, input: { messageId: 'msg-1' } }, triggerData)).toBe(`/messages?mailbox=${mailboxId}&thread=thread-9`);
    expect(watchedConversationHref({ ...wait, input: { messageId: 'msg-5' } }, triggerData)).toBeNull();
    expect(watchedConversationHref(wait, { ...triggerData, threadId: null })).toBeNull();
    expect(watchedConversationHref(wait, null)).toBeNull();
  });
});
