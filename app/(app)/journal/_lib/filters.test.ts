import { describe, expect, it } from 'vitest';
import { isJournalFiltered, journalFiltersFromSearch, noJournalFilters, queryOfJournalFilters, ruleKeyOf, searchOfJournalFilters } from './filters';

const mailboxId = '5f0c2d9a-1b2c-4d3e-8f4a-5b6c7d8e9f00';

describe('message journal filters', () => {
  it('reads the dashboard’s link (outcome, mailbox, time window) as the list’s filters and query', () => {
    const filters = journalFiltersFromSearch({ outcome: 'unmatched', mailboxId, from: '2026-03-28T00:00:00+01:00', to: '2026-03-29T00:00:00+01:00' });
    expect(filters).toEqual({ outcome: 'unmatched', mailboxId, from: '2026-03-27T23:00:00.000Z', to: '2026-03-28T23:00:00.000Z' });
    expect(queryOfJournalFilters(filters)).toEqual({ outcome: 'unmatched', mailboxId, from: '2026-03-27T23:00:00.000Z', to: '2026-03-28T23:00:00.000Z' });
    expect(isJournalFiltered(filters)).toBe(true);
  });

  it('accepts every outcome the journal records and drops anything else', () => {
    for (const outcome of ['dispatched', 'unmatched', 'guardrail', 'excluded_member', 'excluded_org']) expect(journalFiltersFromSearch({ outcome }).outcome).toBe(outcome);
    expect(journalFiltersFromSearch({ outcome: 'exploded', mailboxId: 'inbox', from: 'today' })).toEqual(noJournalFilters);
    expect(queryOfJournalFilters(noJournalFilters)).toEqual({});
    expect(isJournalFiltered(noJournalFilters)).toBe(false);
  });

  it('writes back only the filters that are set, and reads back what it wrote', () => {
    const filters = { ...noJournalFilters, outcome: 'guardrail' as const, from: '2026-03-28T00:00:00.000Z' };
    expect(searchOfJournalFilters(filters)).toBe('?outcome=guardrail&from=2026-03-28T00%3A00%3A00.000Z');
    expect(journalFiltersFromSearch(Object.fromEntries(new URLSearchParams(searchOfJournalFilters(filters))))).toEqual(filters);
    expect(searchOfJournalFilters(noJournalFilters)).toBe('');
  });

  it('names the rule that decided: a guardrail by its name, any sender exclusion as one, nothing when no rule decided', () => {
    expect(ruleKeyOf('guardrail:bulk')).toEqual({ key: 'bulk' });
    expect(ruleKeyOf('exclusion:0b7d6c1e-4d7e-4b39-9a53-3c6f1d2e8a10')).toEqual({ key: 'exclusion' });
    expect(ruleKeyOf(null)).toBeNull();
    expect(ruleKeyOf('something:new')).toEqual({ raw: 'something:new' });
  });
});

describe('the journal’s words', () => {
  it('has a readable badge in English and French for every outcome the server records', async () => {
    const { journalOutcomes: serverOutcomes } = await import('@/server/domains/journal/schemas');
    const { enJournal } = await import('@/app/(app)/journal/_i18n/en-journal');
    const { frJournal } = await import('@/app/(app)/journal/_i18n/fr-journal');
    for (const outcome of serverOutcomes) {
      expect(enJournal.outcomes[outcome], outcome).toBeTruthy();
      expect(frJournal.outcomes[outcome], outcome).toBeTruthy();
    }
    expect(enJournal.outcomes.unmatched).toBe('Matched no workflow');
    expect(frJournal.outcomes.unmatched).toBe('Aucun workflow correspondant');
    expect(Object.keys(frJournal.rules).sort()).toEqual(Object.keys(enJournal.rules).sort());
  });
});
