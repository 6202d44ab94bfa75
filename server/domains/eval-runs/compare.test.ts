import { describe, expect, it } from 'vitest';
import { notTriggered, outcomesDiffer, type CaseOutcome } from './compare';

const ran = (extra: Partial<CaseOutcome> = {}): CaseOutcome => ({ triggered: true, path: ['trigger', 'draft'], effects: [{ kind: 'mail.draft', description: 'Draft “Re: Hi” to 1 recipient(s)' }], error: null, ...extra });

describe('outcomesDiffer', () => {
  it('is false without a baseline and for equal outcomes', () => {
    expect(outcomesDiffer(ran(), null)).toBe(false);
    expect(outcomesDiffer(ran(), ran())).toBe(false);
    expect(outcomesDiffer(notTriggered, { ...notTriggered })).toBe(false);
  });

  it('sees a different trigger decision, path, effect or error code', () => {
    expect(outcomesDiffer(ran(), notTriggered)).toBe(true);
    expect(outcomesDiffer(ran(), ran({ path: ['trigger', 'send'] }))).toBe(true);
    expect(outcomesDiffer(ran(), ran({ path: ['trigger'] }))).toBe(true);
    expect(outcomesDiffer(ran(), ran({ effects: [{ kind: 'mail.send', description: 'Draft “Re: Hi” to 1 recipient(s)' }] }))).toBe(true);
    expect(outcomesDiffer(ran(), ran({ effects: [{ kind: 'mail.draft', description: 'Draft “Re: Other” to 1 recipient(s)' }] }))).toBe(true);
    expect(outcomesDiffer(ran(), ran({ effects: [] }))).toBe(true);
    expect(outcomesDiffer(ran(), ran({ error: { code: 'http_error', message: 'x' } }))).toBe(true);
  });

  it('ignores an error’s message when the codes agree', () => {
    expect(outcomesDiffer(ran({ error: { code: 'x', message: 'a' } }), ran({ error: { code: 'x', message: 'b' } }))).toBe(false);
  });
});
