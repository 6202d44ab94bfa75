/** The message journal's filters ↔ the page's query string (`/journal?outcome=…&mailboxId=…&from=…&to=…`). */
import { firstParam } from '../../executions/_lib/filters';
import { isUuid } from '@/server/core/ids';
import { queryOfWindow, windowFromSearch } from '../../executions/_lib/time-window';

/** The journal's `outcome` values (server/domains/journal/schemas.ts), in the order the filter offers them. */
export const journalOutcomes = ['dispatched', 'unmatched', 'guardrail', 'excluded_member', 'excluded_org'] as const;
export type JournalOutcome = (typeof journalOutcomes)[number];

export interface JournalFilterState {
  outcome: JournalOutcome | '';
  mailboxId: string;
  /** The time window on the entry's creation, `[from, to)` (ISO instants; '' when open on that side). */
  from: string;
  to: string;
}

export const noJournalFilters: JournalFilterState = { outcome: '', mailboxId: '', from: '', to: '' };

/** Unknown or malformed values are dropped: a hand-edited URL never makes the list fail. */
export function journalFiltersFromSearch(search: Record<string, string | string[] | undefined>): JournalFilterState {
  const outcome = firstParam(search.outcome);
  const mailboxId = firstParam(search.mailboxId);
  return {
    outcome: (journalOutcomes as readonly string[]).includes(outcome) ? (outcome as JournalOutcome) : '',
    mailboxId: isUuid(mailboxId) ? mailboxId : '',
    ...windowFromSearch(search),
  };
}

export function searchOfJournalFilters(filters: JournalFilterState): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function isJournalFiltered(filters: JournalFilterState): boolean {
  return Object.values(filters).some(Boolean);
}

/** The list query's input: only the filters that are set. */
export function queryOfJournalFilters(filters: JournalFilterState) {
  return {
    ...(filters.outcome ? { outcome: filters.outcome } : {}),
    ...(filters.mailboxId ? { mailboxId: filters.mailboxId } : {}),
    ...queryOfWindow(filters),
  };
}

/**
 * The rule that decided, as a dictionary key: a guardrail by name (`guardrail:bulk` → `bulk`), any
 * sender exclusion as `exclusion`; null when no rule decided. An unknown rule keeps its raw text.
 */
export function ruleKeyOf(ruleRef: string | null): { key: string } | { raw: string } | null {
  if (!ruleRef) return null;
  if (ruleRef.startsWith('exclusion:')) return { key: 'exclusion' };
  if (ruleRef.startsWith('guardrail:')) return { key: ruleRef.slice('guardrail:'.length) };
  return { raw: ruleRef };
}
