/**
 * Draft graphs for the analyzer's opportunities, built by our code from a small set of builders per
 * kind (the model only chooses the kind and the groups; it never writes a graph). Each graph starts
 * with a mail trigger on the analysed mailbox whose filter matches the opportunity's groups: a domain
 * group by `@domain`, a subject group by its longest literal part, and a mailing-list group by the
 * list's top senders (the trigger has no List-Id filter; the member can widen it in the builder).
 * An opportunity's mail is its groups' union, but the trigger's sender and subject filters must both
 * match: so a proposal mixing sender groups with subject groups matches on senders only, the subject
 * groups' top senders added (a little wider than the union rather than their narrow intersection).
 */
import type { GraphInput } from '../../engine/contract/graph';
import type { OpportunityKind, SenderGroup } from './schemas';

const at = (column: number, lane = 0) => ({ x: column * 280, y: lane * 160 });
const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

/** The words of a subject pattern a trigger can match on: the longest run without a placeholder. */
export function subjectFilterOf(pattern: string): string {
  const parts = pattern
    .split('#')
    .map((part) => part.trim())
    .filter((part) => part.length >= 3);
  const longest = parts.sort((a, b) => b.length - a.length)[0] ?? pattern.replace(/#/g, '').trim();
  return clip(longest || pattern, 200);
}

function triggerParams(mailboxId: string, groups: readonly SenderGroup[]) {
  const domains = groups.filter((group) => group.kind === 'domain').map((group) => clip(`@${group.label}`, 200));
  const listSenders = groups.filter((group) => group.kind === 'list').flatMap((group) => group.topSenders.map((sender) => clip(sender, 200)));
  const subjectGroups = groups.filter((group) => group.kind === 'subject');
  const bySender = domains.length > 0 || listSenders.length > 0;
  const subjectSenders = bySender ? subjectGroups.flatMap((group) => group.topSenders.map((sender) => clip(sender, 200))) : [];
  const subjects = bySender ? [] : subjectGroups.map((group) => subjectFilterOf(group.label));
  const anyList = groups.some((group) => group.mailingListShare > 0);
  const anyNoReply = groups.some((group) => group.noReplyShare > 0);
  return {
    mailboxIds: [mailboxId],
    folders: ['inbox'],
    from: [...new Set([...domains, ...listSenders, ...subjectSenders])].slice(0, 50),
    subject: [...new Set(subjects)].slice(0, 50),
    ...(anyList ? { includeMailingLists: true } : {}),
    ...(anyNoReply ? { includeNoReply: true } : {}),
  };
}

const labelName = (title: string) => clip(title.replace(/[^\p{L}\p{N} _-]/gu, ' ').replace(/\s+/g, ' ').trim() || 'Analyzer', 60);

export function buildOpportunityGraph(kind: OpportunityKind, mailboxId: string, groups: readonly SenderGroup[], title: string): GraphInput {
  const trigger = { id: 'trigger', type: 'trigger.mail', version: 1, name: 'Mail from these senders', params: triggerParams(mailboxId, groups), position: at(0) };
  const label = labelName(title);
  switch (kind) {
    case 'label_archive':
      return {
        nodes: [
          trigger,
          { id: 'label', type: 'mail.label', version: 1, name: `Label it ${label}`, params: { add: [label] }, position: at(1) },
          { id: 'read', type: 'mail.mark_read', version: 1, name: 'Mark it read', params: { read: true }, position: at(2) },
          { id: 'archive', type: 'mail.move', version: 1, name: 'Move it to the archive', params: { folder: 'archive' }, position: at(3) },
        ],
        connections: [
          { from: 'trigger', output: 'main', to: 'label' },
          { from: 'label', output: 'main', to: 'read' },
          { from: 'read', output: 'main', to: 'archive' },
        ],
        notes: [],
      };
    case 'extract_table':
      return {
        nodes: [
          trigger,
          {
            id: 'fields',
            type: 'data.set',
            version: 1,
            name: 'Pick out the fields',
            params: {
              keepInput: false,
              fields: [
                { name: 'sender', value: '{{ trigger.from.email }}' },
                { name: 'subject', value: '{{ trigger.subject ? $substring(trigger.subject, 0, 500) : "" }}' },
                { name: 'receivedAt', value: '{{ trigger.receivedAt }}' },
              ],
            },
            position: at(1),
          },
          {
            id: 'save',
            type: 'tables.upsert',
            version: 1,
            name: 'Save it in a table',
            params: { tableId: 'analyzer', cells: { sender: '{{ nodes.fields.sender }}', subject: '{{ nodes.fields.subject }}', received_at: '{{ nodes.fields.receivedAt }}' } },
            position: at(2),
          },
          { id: 'label', type: 'mail.label', version: 1, name: `Label it ${label}`, params: { add: [label] }, position: at(3) },
        ],
        connections: [
          { from: 'trigger', output: 'main', to: 'fields' },
          { from: 'fields', output: 'main', to: 'save' },
          { from: 'save', output: 'main', to: 'label' },
        ],
        notes: [
          {
            id: 'set-up',
            text: 'Choose your table in “Save it in a table” (columns sender, subject, received_at).',
            position: { x: 0, y: -220 },
            size: { width: 520, height: 160 },
            color: 'jaune' as const,
          },
        ],
      };
    case 'draft_reply':
      return {
        nodes: [
          trigger,
          {
            id: 'reply',
            type: 'mail.draft',
            version: 1,
            name: 'Draft a reply for review',
            params: { replyTo: { mode: 'reply' }, bodyText: 'Hello,\n\nThank you for your message. \n\nBest regards' },
            position: at(1),
          },
        ],
        connections: [{ from: 'trigger', output: 'main', to: 'reply' }],
        notes: [],
      };
    case 'notify':
      return {
        nodes: [
          trigger,
          {
            id: 'notify',
            type: 'notify.owner',
            version: 1,
            name: 'Notify me',
            params: {
              title: '{{ $substring("Mail from " & (trigger.from.name ? trigger.from.name : trigger.from.email), 0, 120) }}',
              body: '{{ trigger.subject ? $substring(trigger.subject, 0, 1000) : "(no subject)" }}',
              severity: 'info',
            },
            position: at(1),
          },
        ],
        connections: [{ from: 'trigger', output: 'main', to: 'notify' }],
        notes: [],
      };
  }
}
