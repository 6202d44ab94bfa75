/**
 * Drill-down addresses of the dashboard, in one place: every row and every bar opens the list it
 * counts. The executions list reads `workflowId`, `status`, `from`, `to`; the message journal reads
 * `outcome`, `from`, `to` (both lists are built by their own pages; this only writes the addresses).
 * Runs links also say `simulated=false&loopIterations=false`: the runs the figures count (live runs,
 * loop iterations left out; GET /api/v1/dashboard/executions), so the list shows exactly those.
 */
export interface TimeRange {
  from: string;
  to: string;
}

function search(params: Record<string, string | null | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) query.set(key, value);
  const text = query.toString();
  return text ? `?${text}` : '';
}

export function executionsHref({ workflowId, status, range }: { workflowId?: string | null; status?: string | null; range?: TimeRange | null }): string {
  return `/executions${search({ workflowId, status, from: range?.from, to: range?.to, simulated: 'false', loopIterations: 'false' })}`;
}

export function journalHref({ outcome, range }: { outcome?: string | null; range?: TimeRange | null }): string {
  return `/journal${search({ outcome, from: range?.from, to: range?.to })}`;
}

/**
 * The time range of bucket `index`: from its start to the next bucket's start (the window's end for
 * the last one), clipped to the window (the first bucket can start before the window does).
 */
export function bucketRange(window: { from: string; to: string; buckets: string[] }, index: number): TimeRange {
  const start = window.buckets[index];
  const next = window.buckets[index + 1] ?? window.to;
  const from = Date.parse(start) < Date.parse(window.from) ? window.from : start;
  const to = Date.parse(next) > Date.parse(window.to) ? window.to : next;
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
}
