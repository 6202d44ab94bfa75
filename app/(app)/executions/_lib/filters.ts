/** The executions list's filters ↔ the page's query string (so a filtered list can be linked to). */
import { executionStatuses, type ExecutionStatus } from './status';
import { queryOfWindow, windowFromSearch } from './time-window';
import { isUuid } from '@/server/core/ids';

export interface ExecutionFilterState {
  workflowId: string;
  /** One of the member's mailboxes (the server intersects it with theirs). */
  mailboxId: string;
  status: ExecutionStatus | '';
  simulated: 'true' | 'false' | '';
  /** Finished runs that acted outside themselves (`with`) or did nothing (`without`). */
  effects: 'with' | 'without' | '';
  q: string;
  /** `false`: loop iterations left out, as the dashboard counts (its links say so); `true`: only them. No control of its own: it comes from a link and stays in the URL. */
  loopIterations: 'true' | 'false' | '';
  /** The time window on the run's creation, `[from, to)` (ISO instants; '' when open on that side). */
  from: string;
  to: string;
}

export const noFilters: ExecutionFilterState = { workflowId: '', mailboxId: '', status: '', simulated: '', effects: '', q: '', loopIterations: '', from: '', to: '' };

export function firstParam(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** Unknown or malformed values are dropped: a hand-edited URL never makes the list fail. */
export function filtersFromSearch(search: Record<string, string | string[] | undefined>): ExecutionFilterState {
  const workflowId = firstParam(search.workflowId);
  const mailboxId = firstParam(search.mailboxId);
  const status = firstParam(search.status);
  const simulated = firstParam(search.simulated);
  const effects = firstParam(search.effects);
  const loopIterations = firstParam(search.loopIterations);
  return {
    workflowId: isUuid(workflowId) ? workflowId : '',
    mailboxId: isUuid(mailboxId) ? mailboxId : '',
    status: (executionStatuses as readonly string[]).includes(status) ? (status as ExecutionStatus) : '',
    simulated: simulated === 'true' || simulated === 'false' ? simulated : '',
    effects: effects === 'with' || effects === 'without' ? effects : '',
    q: firstParam(search.q).trim().slice(0, 200),
    loopIterations: loopIterations === 'true' || loopIterations === 'false' ? loopIterations : '',
    ...windowFromSearch(search),
  };
}

export function searchOfFilters(filters: ExecutionFilterState): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Whether any filter narrows the list (the empty state then says so). */
export function isFiltered(filters: ExecutionFilterState): boolean {
  return Object.values(filters).some(Boolean);
}

/** The list query's input: only the filters that are set. */
export function queryOfFilters(filters: ExecutionFilterState) {
  return {
    ...(filters.workflowId ? { workflowId: filters.workflowId } : {}),
    ...(filters.mailboxId ? { mailboxId: filters.mailboxId } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.simulated ? { simulated: filters.simulated } : {}),
    ...(filters.effects ? { effects: filters.effects } : {}),
    ...(filters.q.trim() ? { q: filters.q.trim() } : {}),
    ...(filters.loopIterations ? { loopIterations: filters.loopIterations } : {}),
    ...queryOfWindow(filters),
  };
}
