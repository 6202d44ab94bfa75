import { describe, expect, it } from 'vitest';
import { graphInput } from '../../engine/contract/graph';
import { assertValidGraph } from '../workflows/service';
import { buildOpportunityGraph, subjectFilterOf } from './graphs';
import { opportunityKinds, type SenderGroup } from './schemas';

const group = (key: string, kind: SenderGroup['kind'], label: string, extra: Partial<SenderGroup> = {}): SenderGroup => ({
  key,
  kind,
  label,
  volume: 10,
  senders: 2,
  topSenders: [],
  sampleSubjects: [],
  mailingListShare: 0,
  noReplyShare: 0,
  attachmentShare: 0,
  ...extra,
});

describe('opportunity graphs', () => {
  it.each(opportunityKinds)('builds a valid draft graph for %s', (kind) => {
    const groups = [group('domain:news.example', 'domain', 'news.example', { mailingListShare: 0.5 })];
    const graph = graphInput.parse(buildOpportunityGraph(kind, '00000000-0000-4000-8000-000000000001', groups, 'Newsletters: label & archive!'));
    expect(() => assertValidGraph(graph)).not.toThrow();
    expect(graph.nodes[0]).toMatchObject({
      type: 'trigger.mail',
      params: { mailboxIds: ['00000000-0000-4000-8000-000000000001'], from: ['@news.example'], subject: [], includeMailingLists: true },
    });
  });

  it('matches subject groups alone on their subject words', () => {
    const groups = [group('subject:invoice #', 'subject', 'invoice #', { topSenders: ['billing@shop.example'] })];
    const graph = graphInput.parse(buildOpportunityGraph('extract_table', '00000000-0000-4000-8000-000000000001', groups, 'Invoices'));
    expect(graph.nodes[0]?.params).toMatchObject({ from: [], subject: ['invoice'] });
  });

  it('matches a proposal mixing sender and subject groups on senders, the subject groups’ senders included (the union, not the intersection)', () => {
    const groups = [
      group('domain:news.example', 'domain', 'news.example'),
      group('subject:invoice #', 'subject', 'invoice #', { topSenders: ['billing@shop.example', 'ap@supplier.example'] }),
    ];
    const graph = graphInput.parse(buildOpportunityGraph('notify', '00000000-0000-4000-8000-000000000001', groups, 'Mixed'));
    expect(() => assertValidGraph(graph)).not.toThrow();
    expect(graph.nodes[0]?.params).toMatchObject({ from: ['@news.example', 'billing@shop.example', 'ap@supplier.example'], subject: [] });
  });

  it('matches a mailing-list group on its top senders and lets list mail through', () => {
    const groups = [
      group('list:dev.lists.example', 'list', 'dev.lists.example', { topSenders: ['ann@one.example', 'bob@two.example'], mailingListShare: 1 }),
      group('domain:one.example', 'domain', 'one.example'),
    ];
    const graph = graphInput.parse(buildOpportunityGraph('label_archive', '00000000-0000-4000-8000-000000000001', groups, 'Dev list'));
    expect(() => assertValidGraph(graph)).not.toThrow();
    expect(graph.nodes[0]?.params).toMatchObject({ from: ['@one.example', 'ann@one.example', 'bob@two.example'], subject: [], includeMailingLists: true });
  });

  it('matches a subject pattern on its longest literal part', () => {
    expect(subjectFilterOf('order # shipped to you')).toBe('shipped to you');
    expect(subjectFilterOf('#')).toBe('#');
  });
});
