// @vitest-environment jsdom
/**
 * Review shows the mail a draft answers beside the draft (issue 19 §7): the original is read through
 * the messages route and shown in the webmail's sandboxed frame (no scripts, no same origin), next to
 * the draft; a new message shows the draft alone, and an original the mailbox lost says so. The
 * server side (`relatedMessage` of GET /api/v1/review/{id}): server/domains/review/review.int.test.ts.
 */
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeRouter, renderWithTrpc, trpcAppError, type TrpcHandler } from '@/app/testing/render-with-trpc';
import { en } from '@/app/i18n/en';
import { frameSandbox } from '../messages/_lib/srcdoc';
import type { ReviewItem } from './_lib/api';
import { ReadingPane } from './reading-pane';


afterEach(cleanup);

const originalId = '00000000-0000-4000-8000-0000000000a1';

const item: ReviewItem = {
  id: '00000000-0000-4000-8000-0000000000d1',
  mailboxId: '00000000-0000-4000-8000-0000000000b1',
  mailboxAddress: 'support@example.test',
  mode: 'draft',
  origin: 'workflow',
  recipients: ['customer@example.test'],
  subject: 'Re: Where is my parcel?',
  createdAt: '2026-12-02T08:00:00.000Z',
  reviewStatus: 'pending',
  sendStatus: 'pending',
};

function detail(relatedMessage: { id: string; relation: 'reply' | 'replyAll' | 'forward' } | null) {
  return { message: item, cc: [], bcc: [], recipientCards: [{ address: 'customer@example.test', displayName: 'Casey Customer', status: 'vip' }], bodyText: 'Your parcel left yesterday.', hasRemoteImages: false, attachments: [], relatedMessage };
}

const original = {
  id: originalId,
  mailboxId: item.mailboxId,
  threadId: null,
  from: { name: 'Casey Customer', email: 'customer@example.test' },
  subject: 'Where is my parcel?',
  snippet: 'I ordered…',
  receivedAt: '2026-12-01T18:00:00.000Z',
  folderLabels: ['INBOX'],
  flags: { seen: true, flagged: false, answered: false, draft: false },
  hasAttachments: false,
  bodyText: null,
  bodyHtmlSafe: '<!doctype html><html><body><p>I ordered on Monday. Where is my parcel?</p></body></html>',
  hasRemoteImages: false,
  bodyComplete: true,
  headersSubset: { to: [], cc: [], replyTo: [], date: null, messageIdHeader: '<q1@peer.example>' },
  attachments: [],
  classification: {},
};

function renderPane(handlers: Record<string, TrpcHandler>) {
  renderWithTrpc(<ReadingPane item={item} busy={false} onSend={() => {}} onReject={() => {}} onSnooze={() => {}} onResolve={() => {}} />, handlers, { router: fakeRouter() });
}

const texts = en.review.original;

describe('ReadingPane', () => {
  it('shows the mail a draft answers beside the draft, in the sandboxed message frame', async () => {
    renderPane({ 'review.detail': () => detail({ id: originalId, relation: 'reply' }), 'mail.messages.get': () => original });
    const section = await screen.findByRole('region', { name: texts.title.reply });
    expect(await within(section).findByText('Where is my parcel?')).toBeTruthy();
    expect(within(section).getByText(/Casey Customer <customer@example.test>/)).toBeTruthy();
    const frame = within(section).getByTitle(texts.frameTitle('Where is my parcel?'));
    // The webmail's frame: sandboxed without scripts or same origin, the sanitised body inside.
    // The webmail's frame: allow-same-origin only to size it to its mail, never with scripts (app/(app)/messages/_lib/srcdoc.ts).
    expect(frame.getAttribute('sandbox')).not.toMatch(/allow-scripts/);
    expect(frame.getAttribute('sandbox')).toBe(frameSandbox);
    expect(frame.getAttribute('srcdoc')).toContain('I ordered on Monday');

    const draft = screen.getByRole('region', { name: texts.draft });
    expect(within(draft).getByTitle(en.review.frameTitle(item.subject)).getAttribute('srcdoc')).toContain('Your parcel left yesterday.');
  });

  it('shows the recipients as the address book names them, with their status (issue 22)', async () => {
    renderPane({ 'review.detail': () => detail(null) });
    const cards = await screen.findByTestId('review-recipient-cards');
    expect(within(cards).getByText('Casey Customer').getAttribute('title')).toBe('customer@example.test');
    expect(within(cards).getByText(en.webmail.addressBook.statuses.vip)).toBeTruthy();
  });

  it('names a forward as the message it forwards', async () => {
    renderPane({ 'review.detail': () => detail({ id: originalId, relation: 'forward' }), 'mail.messages.get': () => original });
    expect(await screen.findByRole('region', { name: texts.title.forward })).toBeTruthy();
  });

  it('a new message shows the draft alone', async () => {
    renderPane({ 'review.detail': () => detail(null) });
    expect(await screen.findByTitle(en.review.frameTitle(item.subject))).toBeTruthy();
    expect(screen.queryByTestId('review-original')).toBeNull();
  });

  it('an original the mailbox no longer has says so, and the draft still shows', async () => {
    renderPane({
      'review.detail': () => detail({ id: originalId, relation: 'reply' }),
      'mail.messages.get': () => Promise.reject(trpcAppError('request.not_found')),
    });
    expect(await screen.findByText(texts.gone)).toBeTruthy();
    expect(screen.getByTitle(en.review.frameTitle(item.subject))).toBeTruthy();
  });
});
