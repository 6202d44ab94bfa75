// @vitest-environment jsdom
/**
 * The home page's "Get started" list (issue 19 §7) over a tRPC client answering from handlers: each
 * step shows done or to do from GET /api/v1/me/onboarding and links to where it is done; inviting is
 * an administrator's step; the list can be hidden, and once complete it says so and can be dismissed.
 * The facts themselves: server/domains/onboarding/onboarding.int.test.ts.
 */
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeRouter, renderWithTrpc, type TrpcHandler } from '@/app/testing/render-with-trpc';
import { en } from '@/app/i18n/en';
import { fr } from '@/app/i18n/fr';
import { type Member } from '@/app/lib/trpc';
import { GetStarted } from './get-started';


afterEach(cleanup);
beforeEach(() => window.localStorage.clear());

function member(role: Member['role']): Member {
  return {
    id: role === 'admin' ? '00000000-0000-4000-8000-00000000000a' : '00000000-0000-4000-8000-00000000000b',
    email: `${role}@example.com`,
    name: role,
    role,
    status: 'active',
    mailboxCount: 0,
    publishedWorkflowCount: 0,
    createdAt: '2026-12-02T08:00:00.000Z',
  };
}

interface Facts {
  mailboxConnected: boolean;
  templateTried: boolean;
  workflowPublished: boolean;
  teamInvited: boolean | null;
  complete: boolean;
}

function renderList(who: Member, facts: Facts, locale: 'en' | 'fr' = 'en') {
  const handlers: Record<string, TrpcHandler> = { 'auth.me': () => ({ member: who, mustChangePassword: false }), 'onboarding.status': () => facts };
  renderWithTrpc(<GetStarted />, handlers, { locale, router: fakeRouter() });
}

const texts = en.onboarding.getStarted;

describe('GetStarted', () => {
  it('ticks the steps the server says are done and links the others to where they are done', async () => {
    renderList(member('admin'), { mailboxConnected: true, templateTried: false, workflowPublished: false, teamInvited: false, complete: false });
    await screen.findByRole('heading', { name: texts.title });
    const mailbox = screen.getByTestId('get-started-mailbox');
    expect(mailbox.getAttribute('data-done')).toBe('true');
    expect(within(mailbox).getByText(texts.done)).toBeTruthy();
    expect(within(mailbox).queryByRole('link')).toBeNull();
    const template = screen.getByTestId('get-started-template');
    expect(within(template).getByText(texts.todo)).toBeTruthy();
    expect(within(template).getByRole('link', { name: texts.steps.template.action }).getAttribute('href')).toBe('/templates');
    expect(within(screen.getByTestId('get-started-publish')).getByRole('link').getAttribute('href')).toBe('/workflows');
    expect(within(screen.getByTestId('get-started-invite')).getByRole('link').getAttribute('href')).toBe('/admin/members');
    expect(screen.getByText(texts.progress(1, 4))).toBeTruthy();
  });

  it('does not ask a member to invite the team', async () => {
    renderList(member('member'), { mailboxConnected: false, templateTried: false, workflowPublished: false, teamInvited: null, complete: false });
    await screen.findByRole('heading', { name: texts.title });
    expect(screen.queryByTestId('get-started-invite')).toBeNull();
    expect(screen.getByText(texts.progress(0, 3))).toBeTruthy();
  });

  it('can be hidden before it is done, and shown again', async () => {
    renderList(member('member'), { mailboxConnected: false, templateTried: false, workflowPublished: false, teamInvited: null, complete: false });
    fireEvent.click(await screen.findByRole('button', { name: texts.hideLabel }));
    expect(screen.queryByTestId('get-started')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: texts.show }));
    expect(screen.getByTestId('get-started')).toBeTruthy();
  });

  it('once every step is done, says so and can be dismissed for good', async () => {
    renderList(member('member'), { mailboxConnected: true, templateTried: true, workflowPublished: true, teamInvited: null, complete: true });
    expect(await screen.findByText(texts.allDone)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: texts.dismiss }));
    expect(screen.queryByTestId('get-started')).toBeNull();
    expect(screen.queryByRole('button', { name: texts.show })).toBeNull();
    cleanup();
    // Remembered in this browser for this member: the next visit keeps it hidden (were a step undone,
    // only the small "show" button would come back).
    renderList(member('member'), { mailboxConnected: false, templateTried: true, workflowPublished: true, teamInvited: null, complete: false });
    expect(await screen.findByRole('button', { name: texts.show })).toBeTruthy();
    expect(screen.queryByTestId('get-started')).toBeNull();
  });

  it('speaks French', async () => {
    renderList(member('member'), { mailboxConnected: false, templateTried: false, workflowPublished: false, teamInvited: null, complete: false }, 'fr');
    expect(await screen.findByRole('heading', { name: fr.onboarding.getStarted.title })).toBeTruthy();
    expect(screen.getByText(fr.onboarding.getStarted.steps.mailbox.label)).toBeTruthy();
  });
});
