// @vitest-environment jsdom
/**
 * Admin → Members in jsdom over a tRPC client answering from a table of handlers (no server).
 * Deactivate is not offered on one's own account (the service refuses it with 409
 * governance.self_target: server/domains/members/members.int.test.ts); other active members keep it.
 */
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeRouter, renderWithTrpc, type TrpcHandler } from '@/app/testing/render-with-trpc';
import { en } from '@/app/i18n/en';
import { type Member } from '@/app/lib/trpc';
import { MembersSection } from './members-section';


afterEach(cleanup);

function member(id: string, name: string, role: Member['role']): Member {
  return {
    id,
    email: `${name.toLowerCase()}@example.com`,
    name,
    role,
    status: 'active',
    mailboxCount: 0,
    publishedWorkflowCount: 0,
    createdAt: '2026-11-24T10:00:00.000Z',
  };
}

const ada = member('00000000-0000-4000-8000-000000000001', 'Ada', 'admin');
const grace = member('00000000-0000-4000-8000-000000000002', 'Grace', 'member');

function renderSection(handlers: Record<string, TrpcHandler>) {
  renderWithTrpc(<MembersSection />, handlers, { router: fakeRouter() });
}

describe('MembersSection', () => {
  it('does not offer Deactivate on one’s own account, and offers it on other active members', async () => {
    renderSection({ 'auth.me': () => ({ member: ada }), 'members.list': () => ({ members: [ada, grace] }) });
    expect(await screen.findByRole('button', { name: en.members.deactivateLabel(grace.name) })).toBeTruthy();
    // The "You" badge shows once the signed-in member is known: only then is the row known to be one's own.
    await screen.findByText(en.common.you);
    expect(screen.queryByRole('button', { name: en.members.deactivateLabel(ada.name) })).toBeNull();
  });
});
