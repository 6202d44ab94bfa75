/** The executions list's filters ↔ the page's query string (so a filtered list can be linked to). */
import { executionStatuses, type ExecutionStatus } from './status';

export interface ExecutionFilterState {
  workflowId: string;
  status: ExecutionStatus | '';
  simulated: 'true' | 'false' | '';
  /** Finished runs that acted outside themselves (`with`) or did nothing (`without`). */
  effects: 'with' | 'without' | '';
  q: string;
}

export const noFilters: ExecutionFilterState = { workflowId: '', status: '', simulated: '', effects: '', q: '' };

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function first(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** Unknown or malformed values are dropped: a hand-edited URL never makes the list fail. */
export function filtersFromSearch(search: Record<string, string | string[] | undefined>): ExecutionFilterState {
  const workflowId = first(search.workflowId);
  const status = first(search.status);
  const simulated = first(search.simulated);
  const effects = first(search.effects);
  return {
    workflowId: uuid.test(workflowId) ? workflowId : '',
    status: (executionStatuses as readonly string[]).includes(status) ? (status as ExecutionStatus) : '',
    simulated: simulated === 'true' || simulated === 'false' ? simulated : '',
    effects: effects === 'with' || effects === 'without' ? effects : '',
    q: first(search.q).trim().slice(0, 200),
  };
}

export function searchOfFilters(filters: ExecutionFilterState): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The list query's input: only the filters that are set. */
export function queryOfFilters(filters: ExecutionFilterState) {
  return {
    ...(filters.workflowId ? { workflowId: filters.workflowId } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.simulated ? { simulated: filters.simulated } : {}),
    ...(filters.effects ? { effects: filters.effects } : {}),
    ...(filters.q.trim() ? { q: filters.q.trim() } : {}),
  };
}
