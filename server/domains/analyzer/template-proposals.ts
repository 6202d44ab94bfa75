/**
 * Starter templates proposed for the groups the analyzer found, without any AI model (issue 19 §7):
 * list and bulk mail (newsletters) → “Label and archive newsletters”; a recurring subject about
 * invoices with attachments → “Extract invoices into a table”. Pure: the runner passes the groups and
 * the enabled starter templates it found by slug. Each proposal installs the template itself
 * (`template` on the opportunity), so its install is counted and its note and tables come along.
 */
import type { Opportunity, OpportunityKind, SenderGroup } from './schemas';

export interface StarterForProposal {
  id: string;
  slug: string;
  name: string;
  graph: unknown;
}

interface Rule {
  slug: string;
  kind: OpportunityKind;
  matches: (group: SenderGroup) => boolean;
  rationale: (groups: number) => string;
}

/** Half the group's mail at least: a group is what most of its mail is. */
const mostly = (share: number) => share >= 0.5;
const invoiceWords = /\b(invoices?|factures?|rechnung(en)?|bills?)\b/i;
const mentionsInvoices = (group: SenderGroup) => invoiceWords.test(group.label) || group.sampleSubjects.some((subject) => invoiceWords.test(subject));

export const starterRules: readonly Rule[] = [
  {
    slug: 'label-and-archive-newsletters',
    kind: 'label_archive',
    matches: (group) => group.kind !== 'subject' && mostly(group.mailingListShare),
    rationale: (groups) => `${groups === 1 ? 'This group is' : `These ${groups} groups are`} mostly newsletters and list mail: the starter template labels them, marks them read and archives them, whoever sends them.`,
  },
  {
    slug: 'extract-invoices-into-a-table',
    kind: 'extract_table',
    matches: (group) => mentionsInvoices(group) && mostly(group.attachmentShare),
    rationale: (groups) => `${groups === 1 ? 'Invoices arrive' : `Invoices arrive in ${groups} groups`} with attachments: the starter template writes each one (number, sender, amount) into a table.`,
  },
];

export function starterProposals(groups: readonly SenderGroup[], starters: readonly StarterForProposal[], firstKey = 1): Opportunity[] {
  const bySlug = new Map(starters.map((starter) => [starter.slug, starter]));
  const proposals: Opportunity[] = [];
  for (const rule of starterRules) {
    const starter = bySlug.get(rule.slug);
    const matching = groups.filter(rule.matches);
    if (!starter || matching.length === 0) continue;
    proposals.push({
      key: `t${firstKey + proposals.length}`,
      kind: rule.kind,
      title: starter.name,
      rationale: rule.rationale(matching.length),
      evidence: {
        groups: matching.map((group) => ({ key: group.key, label: group.label, volume: group.volume })),
        messages: matching.reduce((sum, group) => sum + group.volume, 0),
        sampleSubjects: [...new Set(matching.flatMap((group) => group.sampleSubjects))].slice(0, 5),
      },
      graph: starter.graph as Record<string, unknown>,
      template: { id: starter.id, slug: starter.slug, name: starter.name },
    });
  }
  return proposals;
}
