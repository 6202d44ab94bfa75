import type { AuthenticatedActor } from '../../core/auth/access';
import { db } from '../../core/db';
import { monthOf, currentBudgets } from '../llm';
import { AI_BREAKDOWN_LIMIT, aiFiguresSql } from './ai-sql';
import { resolveAudience } from './audience';
import { readFigures } from './repo';
import type { DashboardQuery } from './query';
import type { AiFigures } from './schemas';
import { onBuckets, presentWindow, resolveWindow } from './window';

interface Sums {
  calls: number;
  input_tokens: number;
  output_tokens: number;
  reasoning_tokens: number;
  cost_usd: number;
  unpriced_calls: number;
}

interface TotalsRow extends Sums {
  current: boolean;
  start: Date | null;
  instance: boolean;
}

interface BreakdownRow extends Sums {
  dimension: 'model' | 'purpose' | 'member';
  provider: string | null;
  model: string | null;
  purpose: string | null;
  member_id: string | null;
  member_name: string | null;
}

/** Money to 6 decimals at most: sums of floats carry dust (0.30000000000000004). */
export function usd(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

function figuresOf(rows: Sums[]) {
  const add = (key: keyof Sums) => rows.reduce((sum, row) => sum + Number(row[key]), 0);
  return {
    calls: add('calls'),
    inputTokens: add('input_tokens'),
    outputTokens: add('output_tokens'),
    reasoningTokens: add('reasoning_tokens'),
    costUsd: usd(add('cost_usd')),
    unpricedCalls: add('unpriced_calls'),
  };
}

function totalsOf(rows: TotalsRow[]) {
  const memberKeys = rows.filter((row) => !row.instance);
  return {
    ...figuresOf(rows),
    instanceCostUsd: usd(rows.filter((row) => row.instance).reduce((sum, row) => sum + row.cost_usd, 0)),
    memberKeys: { calls: memberKeys.reduce((sum, row) => sum + row.calls, 0), costUsd: usd(memberKeys.reduce((sum, row) => sum + row.cost_usd, 0)) },
  };
}

/** The costliest first, then the most called, then by name: stable for equal figures. */
function ranked<T extends { costUsd: number; calls: number }>(items: T[], name: (item: T) => string): T[] {
  return items
    .sort((a, b) => b.costUsd - a.costUsd || b.calls - a.calls || name(a).localeCompare(name(b)))
    .slice(0, AI_BREAKDOWN_LIMIT);
}

/**
 * AI usage and spend: totals, breakdowns, series and this month's budgets (rules: ai-sql.ts). `statements` is the
 * rollup-reading builder; the agreement test passes the raw one.
 */
export async function aiFigures(actor: AuthenticatedActor, query: DashboardQuery, statements = aiFiguresSql): Promise<AiFigures> {
  const audience = resolveAudience(actor, query);
  const window = await resolveWindow(db(), query);
  const month = monthOf(new Date());
  const budgetMemberId = audience.memberId ?? actor.member.id;
  // Totals first, the month's spend last, the breakdowns between (one statement raw, one per dimension rolled up).
  const all = statements(window, audience, { month, memberId: budgetMemberId });
  const [totals, spend, breakdowns] = [all[0]!, all.at(-1)!, all.slice(1, -1)];
  const [totalRows, [spent], budgets, ...breakdownParts] = await Promise.all([
    readFigures<TotalsRow>(totals),
    readFigures<{ instance: number; member: number }>(spend),
    currentBudgets(),
    ...breakdowns.map((statement) => readFigures<BreakdownRow>(statement)),
  ]);
  const breakdownRows = breakdownParts.flat();
  const of = (dimension: BreakdownRow['dimension']) => breakdownRows.filter((row) => row.dimension === dimension);
  const inWindow = totalRows.filter((row): row is TotalsRow & { start: Date } => row.current && row.start !== null);
  return {
    window: presentWindow(window),
    current: totalsOf(totalRows.filter((row) => row.current)),
    previous: totalsOf(totalRows.filter((row) => !row.current)),
    byModel: ranked(
      of('model').map((row) => ({ provider: row.provider ?? '', model: row.model ?? '', ...figuresOf([row]) })),
      (item) => `${item.provider}/${item.model}`,
    ),
    byPurpose: ranked(
      of('purpose').map((row) => ({ purpose: row.purpose ?? '', ...figuresOf([row]) })),
      (item) => item.purpose,
    ),
    byMember: audience.isAdmin
      ? ranked(
          of('member')
            .filter((row): row is BreakdownRow & { member_id: string } => row.member_id !== null)
            .map((row) => ({ memberId: row.member_id, memberName: row.member_name, ...figuresOf([row]) })),
          (item) => item.memberName ?? item.memberId,
        )
      : [],
    series: {
      calls: onBuckets(window, inWindow, (row) => row.calls),
      costUsd: onBuckets(window, inWindow, (row) => row.cost_usd).map(usd),
    },
    budgets: {
      month: month.month,
      instance: { limitUsd: budgets.instanceMonthlyUsd, spentUsd: usd(Number(spent?.instance ?? 0)) },
      member: { memberId: budgetMemberId, limitUsd: budgets.memberMonthlyUsd, spentUsd: usd(Number(spent?.member ?? 0)) },
    },
  };
}
