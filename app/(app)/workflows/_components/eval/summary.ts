/** The evaluation's summary sentence, from its figures (pure). */
import type { Dictionary } from '@/app/i18n';

export type EvalStrings = Dictionary['eval'];

interface Figures {
  figures: { triggered: number; wouldSend: number; wouldDraft: number; errors: number; changed: number };
  progress: { done: number; total: number };
  baseline: string;
}

/** "Would trigger on 37 of 200 · would send 12 · would draft 3 · 3 errors · 5 differ from the published version" */
export function evalSummary(run: Figures, t: EvalStrings): string {
  const { figures, progress } = run;
  const parts = [t.summary.trigger(figures.triggered, progress.total), t.summary.send(figures.wouldSend), t.summary.draft(figures.wouldDraft), t.summary.errors(figures.errors)];
  if (run.baseline === 'published') parts.push(t.summary.changedPublished(figures.changed));
  if (run.baseline === 'journal') parts.push(t.summary.changedJournal(figures.changed));
  return parts.join(' · ');
}


/**
 * The graph with the mail trigger's option `option` (`includeMailingLists`…) turned on, or null when
 * the graph has no mail trigger: the one-click change a run's reasons summary offers (pure).
 */
export function withTriggerOption<G extends { nodes: readonly unknown[] }>(graph: G, option: string): G | null {
  let found = false;
  const nodes = graph.nodes.map((node) => {
    const candidate = node as { type?: unknown; params?: unknown };
    if (found || typeof node !== 'object' || node === null || candidate.type !== 'trigger.mail') return node;
    found = true;
    const params = typeof candidate.params === 'object' && candidate.params !== null ? candidate.params : {};
    return { ...candidate, params: { ...params, [option]: true } };
  });
  return found ? { ...graph, nodes } : null;
}
