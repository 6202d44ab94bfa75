// @vitest-environment jsdom
/**
 * The dashboard page over a tRPC client answering from handlers: the cards show the answers' figures
 * with their change coloured by meaning; a fresh account sees the teaching empty state; a member has
 * no scope switch and never asks for the organisation; rows open the matching lists; a chart has a
 * table view; a failure is acknowledged in place, optimistically, and comes back if refused.
 * The figures themselves: server/domains/dashboard/*.int.test.ts.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeRouter, renderWithTrpc, type TrpcHandler } from '@/app/testing/render-with-trpc';
import { en } from '@/app/i18n/en';
import { type Member, type RouterOutputs } from '@/app/lib/trpc';
import { DashboardView, ORG_REFRESH_MS } from './dashboard-view';
import { defaultView, type DashboardView as View } from './search';

const replace = vi.fn();
const push = vi.fn();

afterEach(() => {
  cleanup();
  replace.mockReset();
  push.mockReset();
});

const texts = en.dashboard;
const workflowId = '11111111-1111-4111-8111-111111111111';
const incidentId = '22222222-2222-4222-8222-222222222222';

function member(role: Member['role']): Member {
  return { id: '00000000-0000-4000-8000-00000000000b', email: `${role}@example.com`, name: role, role, status: 'active', mailboxCount: 0, publishedWorkflowCount: 0, createdAt: '2026-12-02T08:00:00.000Z' };
}

const window = { from: '2026-11-25T12:00:00.000Z', to: '2026-12-02T12:00:00.000Z', previousFrom: '2026-11-18T12:00:00.000Z', bucket: 'day' as const, buckets: ['2026-11-25T00:00:00.000Z', '2026-11-26T00:00:00.000Z'] };
const statuses = ['queued', 'running', 'waiting', 'succeeded', 'failed', 'cancelled'] as const;
const totals = (succeeded: number, failed: number) => ({
  total: succeeded + failed,
  byStatus: statuses.map((status) => ({ status, count: status === 'succeeded' ? succeeded : status === 'failed' ? failed : 0 })),
  successRate: succeeded + failed === 0 ? null : succeeded / (succeeded + failed),
  medianDurationMs: succeeded + failed === 0 ? null : 1_500,
});
const figures = { workflowId, name: 'Forward orders', memberName: null, total: 4, succeeded: 2, failed: 2, lastRunAt: '2026-12-02T10:00:00.000Z' };

function executionsAnswer(empty = false): RouterOutputs['dashboard']['executions'] {
  if (empty) return { window, current: totals(0, 0), previous: totals(0, 0), series: statuses.map((status) => ({ status, values: [0, 0] })), topWorkflows: [], failingWorkflows: [], recentFailures: [] };
  return {
    window,
    current: totals(2, 2),
    previous: totals(9, 1),
    series: statuses.map((status) => ({ status, values: status === 'succeeded' ? [1, 1] : status === 'failed' ? [0, 2] : [0, 0] })),
    topWorkflows: [figures],
    failingWorkflows: [figures],
    recentFailures: [
      { executionId: '33333333-3333-4333-8333-333333333333', incidentId, workflowId, workflowName: 'Forward orders', memberName: null, failedAt: '2026-12-02T10:00:00.000Z', errorCode: 'http.status', errorSummary: 'HTTP 500', nodeId: 'forward', nodeName: 'Forward', acknowledged: false },
    ],
  };
}

function mailAnswer(received = 0): RouterOutputs['dashboard']['mail'] {
  const mailTotals = (n: number) => ({ received: n, byOutcome: [{ outcome: 'dispatched' as const, count: n }], automatedEmails: 0, draftsPrepared: 0, sentByWorkflows: 0 });
  return { window, current: mailTotals(received), previous: mailTotals(0), series: { received: [0, received], dispatched: [0, received] } };
}

function aiAnswer(): RouterOutputs['dashboard']['ai'] {
  const base = { calls: 0, inputTokens: 0, outputTokens: 0, reasoningTokens: 0, costUsd: 0, unpricedCalls: 0 };
  const aiTotals = { ...base, instanceCostUsd: 0, memberKeys: { calls: 0, costUsd: 0 } };
  return {
    window,
    current: aiTotals,
    previous: aiTotals,
    byModel: [],
    byPurpose: [],
    byMember: [],
    series: { calls: [0, 0], costUsd: [0, 0] },
    budgets: { month: '2026-12', instance: { limitUsd: null, spentUsd: 0 }, member: { limitUsd: null, spentUsd: 0, memberId: member('member').id } },
  };
}


function renderView(who: Member, handlers: Record<string, TrpcHandler>, initialView: View = defaultView) {
  const all: Record<string, TrpcHandler> = {
    'auth.me': () => ({ member: who, mustChangePassword: false }),
    'onboarding.status': () => ({ mailboxConnected: true, templateTried: true, workflowPublished: true, teamInvited: null, complete: true }),
    'workflows.list': () => ({ workflows: [] }),
    'mailboxes.list': () => ({ mailboxes: [] }),
    'members.list': () => ({ members: [] }),
    ...handlers,
  };
  return renderWithTrpc(<DashboardView initialView={initialView} healthPanel={<div data-testid="health-slot" />} />, all, { router: { ...fakeRouter(), replace, push } });
}

const withFigures = { 'dashboard.executions': () => executionsAnswer(), 'dashboard.mail': () => mailAnswer(3), 'dashboard.ai': () => aiAnswer() };

describe('DashboardView', () => {
  it('the cards show the answers’ figures and their change coloured by meaning', async () => {
    renderView(member('member'), withFigures);
    const runs = await screen.findByTestId('kpi-runs-value');
    expect(runs.textContent).toBe('4');
    // 10 runs before, 4 now: −60 %, neither good nor bad.
    expect(screen.getByTestId('kpi-runs-change').textContent).toContain('-60');
    expect(screen.getByTestId('kpi-runs-change').dataset.tone).toBe('neutral');
    // Success rate from 90 % to 50 %: −40 points, bad.
    expect(screen.getByTestId('kpi-successRate-value').textContent).toBe('50%');
    expect(screen.getByTestId('kpi-successRate-change').textContent).toContain('-40');
    expect(screen.getByTestId('kpi-successRate-change').textContent).toContain('pts');
    expect(screen.getByTestId('kpi-successRate-change').dataset.tone).toBe('bad');
    // Nothing received before: a dash, no percentage.
    expect(screen.getByTestId('kpi-mailReceived-value').textContent).toBe('3');
    expect(screen.getByTestId('kpi-mailReceived-change').textContent).toContain('—');
    expect(screen.getByTestId('kpi-aiSpend-value').textContent).toBe('US$0.00');
    // The mailbox health panel's slot is in the page.
    expect(screen.getByTestId('health-slot')).toBeTruthy();
  });

  it('a fresh account sees what to do first instead of empty charts', async () => {
    renderView(member('member'), { 'dashboard.executions': () => executionsAnswer(true), 'dashboard.mail': () => mailAnswer(0), 'dashboard.ai': () => aiAnswer() });
    const empty = await screen.findByTestId('dashboard-empty');
    expect(within(empty).getByRole('heading', { name: texts.empty.title })).toBeTruthy();
    expect(within(empty).getByRole('link', { name: texts.empty.steps.mailbox.action }).getAttribute('href')).toBe('/settings/mailboxes');
    expect(screen.queryByTestId('kpi-cards')).toBeNull();
    expect(screen.queryByTestId('chart-runs')).toBeNull();
  });

  it('a member has no scope switch and never asks for the organisation, even from a shared address', async () => {
    const calls = renderView(member('member'), withFigures, { ...defaultView, scope: 'org' });
    await screen.findByTestId('kpi-cards');
    expect(screen.queryByTestId('dashboard-scope')).toBeNull();
    const asked = calls.filter((call) => call.path.startsWith('dashboard.'));
    expect(asked.length).toBeGreaterThanOrEqual(3);
    for (const call of asked) expect(call.input).toMatchObject({ scope: 'me' });
  });

  it('a member’s own figures are asked at once, without waiting to know who asks', async () => {
    const calls = renderView(member('member'), { ...withFigures, 'auth.me': () => new Promise(() => undefined) });
    await waitFor(() => expect(calls.some((call) => call.path === 'dashboard.executions')).toBe(true));
    expect(calls.find((call) => call.path === 'dashboard.executions')!.input).toMatchObject({ scope: 'me' });
  });

  it('the organisation’s figures are re-read on a timer (other members’ run events never reach an administrator)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const calls = renderView(member('admin'), withFigures, { ...defaultView, scope: 'org' });
      await screen.findByTestId('kpi-cards');
      const asked = () => calls.filter((call) => call.path === 'dashboard.executions').length;
      const before = asked();
      await vi.advanceTimersByTimeAsync(ORG_REFRESH_MS + 1_000);
      await waitFor(() => expect(asked()).toBeGreaterThan(before));
    } finally {
      vi.useRealTimers();
    }
  });

  it('an administrator switches to the organisation: the address is replaced, not pushed', async () => {
    const calls = renderView(member('admin'), withFigures);
    const scope = (await screen.findByTestId('dashboard-scope')) as HTMLSelectElement;
    fireEvent.change(scope, { target: { value: 'org' } });
    expect(replace).toHaveBeenCalledWith('/?scope=org', { scroll: false });
    expect(push).not.toHaveBeenCalled();
    await waitFor(() => expect(calls.some((call) => call.path === 'dashboard.executions' && (call.input as { scope: string }).scope === 'org')).toBe(true));
    expect(await screen.findByTestId('dashboard-member')).toBeTruthy();
  });

  it('the failing workflow’s row opens its failed runs of the window', async () => {
    renderView(member('member'), withFigures);
    const row = await screen.findByTestId('failing-workflow-row');
    const href = new URL(within(row).getByRole('link').getAttribute('href')!, 'http://x');
    expect(href.pathname).toBe('/executions');
    expect(Object.fromEntries(href.searchParams)).toMatchObject({ workflowId, status: 'failed', from: window.from, to: window.to });
  });

  it('a chart shows as a real table with a caption and headers', async () => {
    renderView(member('member'), withFigures);
    const toggle = await screen.findByTestId('chart-runs-toggle');
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(toggle);
    const table = within(screen.getByTestId('chart-runs')).getByRole('table', { name: texts.charts.runs.title });
    expect(within(table).getByRole('columnheader', { name: en.executions.status.failed })).toBeTruthy();
    const failedLink = within(table).getAllByRole('link').find((link) => new URL(link.getAttribute('href')!, 'http://x').searchParams.get('status') === 'failed')!;
    const href = new URL(failedLink.getAttribute('href')!, 'http://x');
    // The second bucket: its start to the window's end.
    expect(href.searchParams.get('from')).toBe('2026-11-26T00:00:00.000Z');
    expect(href.searchParams.get('to')).toBe(window.to);
  });

  it('acknowledges a failure in place at once, before the server answers', async () => {
    let answer: (value: unknown) => void = () => {};
    const acknowledged: unknown[] = [];
    renderView(member('member'), {
      ...withFigures,
      'executions.incidents.acknowledge': (input) => {
        acknowledged.push(input);
        return new Promise((resolve) => (answer = resolve));
      },
    });
    const row = await screen.findByTestId('recent-failure-row');
    fireEvent.click(within(row).getByRole('button', { name: texts.failures.acknowledgeLabel('Forward orders') }));
    await waitFor(() => expect(screen.getByTestId('recent-failure-row').dataset.acknowledged).toBe('true'));
    expect(acknowledged).toEqual([{ id: incidentId }]);
    answer({ incident: { id: incidentId } });
  });

  it('a refused acknowledgement says why and puts the button back', async () => {
    renderView(member('member'), { ...withFigures, 'executions.incidents.acknowledge': () => Promise.reject(new Error('refused')) });
    const row = await screen.findByTestId('recent-failure-row');
    fireEvent.click(within(row).getByRole('button', { name: texts.failures.acknowledgeLabel('Forward orders') }));
    expect(await screen.findByTestId('dashboard-acknowledge-error')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('recent-failure-row').dataset.acknowledged).toBe('false'));
  });

  it('unreadable AI figures leave the rest of the page up, with their own error', async () => {
    renderView(member('member'), { ...withFigures, 'dashboard.ai': () => Promise.reject(new Error('down')) });
    expect((await screen.findByTestId('kpi-runs-value')).textContent).toBe('4');
    expect(screen.getByTestId('kpi-aiSpend-value').textContent).toBe('—');
    expect(within(await screen.findByTestId('dashboard-ai-error')).getByRole('button', { name: en.common.retry })).toBeTruthy();
    expect(screen.queryByTestId('dashboard-error')).toBeNull();
  });

  it('an unreadable answer shows an error with a retry', async () => {
    renderView(member('member'), { ...withFigures, 'dashboard.mail': () => Promise.reject(new Error('down')) });
    const error = await screen.findByTestId('dashboard-error');
    expect(within(error).getByRole('button', { name: en.common.retry })).toBeTruthy();
  });
});
