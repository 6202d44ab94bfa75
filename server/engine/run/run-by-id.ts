/**
 * A status test for a statement that finds its run by id (`WHERE id = $1 AND …`), kept out of the choice of index.
 *
 * Written plainly, `status = 'running'` lets the planner answer it from the partial index of live runs
 * (`executions_status_seq_idx`, queued, running and waiting runs by `seq`), and it prefers that index to the primary
 * key whenever its statistics saw few runs in that status: a table of mostly finished runs, analysed between bursts.
 * A connection keeps a prepared statement's plan, so every later call walked the index entries of every run in that
 * status to find the one id: 89 buffers against 3 by the primary key with 100 runs running, at every step write and
 * run end; a wake-up of one of thousands of runs waiting for replies would have read them all. `(…) IS TRUE` is the
 * same test on the NOT NULL `status`, and no index answers it, so the row is found by its id.
 */
export function statusFilter(condition: string): string {
  return `(${condition}) IS TRUE`;
}
