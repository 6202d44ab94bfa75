import { describe, expect, it } from 'vitest';
import { enEval } from '@/app/(app)/workflows/_i18n/en-eval';
import { frEval } from '@/app/(app)/workflows/_i18n/fr-eval';
import { evalSummary, withTriggerOption } from './summary';

const run = (baseline: string, changed = 5) => ({ baseline, progress: { done: 200, total: 200 }, figures: { triggered: 37, wouldSend: 12, wouldDraft: 3, errors: 3, changed } });

describe('evalSummary', () => {
  it('says what the draft would do, and how it differs from the baseline', () => {
    expect(evalSummary(run('published'), enEval)).toBe('Would trigger on 37 of 200 · would send 12 · would draft 3 · 3 errors · 5 differ from the published version');
    expect(evalSummary(run('journal'), enEval)).toBe('Would trigger on 37 of 200 · would send 12 · would draft 3 · 3 errors · 5 differ from what really happened');
    expect(evalSummary(run('none'), enEval)).toBe('Would trigger on 37 of 200 · would send 12 · would draft 3 · 3 errors');
    expect(evalSummary({ ...run('none'), figures: { ...run('none').figures, errors: 1 } }, enEval)).toContain('1 error');
  });

  it('speaks French', () => {
    expect(evalSummary(run('published', 1), frEval)).toBe('Se déclencherait sur 37 sur 200 · enverrait 12 · préparerait 3 brouillons · 3 erreurs · 1 diffère de la version publiée');
  });
});

describe('withTriggerOption (the one click of a reasons summary)', () => {
  it('turns the option on in the mail trigger, keeping its other parameters and the other nodes', () => {
    const graph = {
      nodes: [
        { id: 'start', type: 'trigger.mail', params: { subject: ['invoice'] } },
        { id: 'draft', type: 'mail.draft', params: { bodyText: 'x' } },
      ],
      connections: [{ from: 'start', output: 'main', to: 'draft' }],
    };
    expect(withTriggerOption(graph, 'includeAutoReplies')).toEqual({
      ...graph,
      nodes: [{ id: 'start', type: 'trigger.mail', params: { subject: ['invoice'], includeAutoReplies: true } }, graph.nodes[1]],
    });
    expect(graph.nodes[0]!.params).toEqual({ subject: ['invoice'] });
  });

  it('is null for a graph without a mail trigger', () => {
    expect(withTriggerOption({ nodes: [{ id: 'hook', type: 'trigger.webhook', params: {} }] }, 'includeMailingLists')).toBeNull();
  });
});
