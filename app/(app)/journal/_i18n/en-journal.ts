/**
 * English strings of the message journal page (`/journal`: what each new mail started, or why it
 * started nothing) and of the time-window chip the filtered lists share (executions, journal).
 */
export const enJournal = {
  metaTitle: 'Message journal',
  title: 'Message journal',
  description: 'Each new mail your mailboxes received, newest first, and what came of it: the workflows it started, or why none did.',
  columns: { date: 'Received', mailbox: 'Mailbox', message: 'Message', outcome: 'Outcome', rule: 'Rule' },
  /** The journal's `outcome` values, as a person reads them. */
  outcomes: {
    dispatched: 'Started workflows',
    unmatched: 'Matched no workflow',
    excluded_org: 'Excluded by the organisation',
    excluded_member: 'Excluded by you',
    guardrail: 'Stopped by a guardrail',
  } as Record<string, string>,
  /** The rule that decided (`ruleRef`): guardrails by name, sender exclusions as one. */
  rules: {
    from_self: 'Sent from this mailbox',
    delivery_report: 'Delivery report',
    auto_reply: 'Automatic reply',
    no_reply: 'No-reply sender',
    mailing_list: 'Mailing list',
    bulk: 'Bulk mail',
    exclusion: 'Sender exclusion',
  } as Record<string, string>,
  otherRule: 'Other rule',
  filters: {
    label: 'Filters',
    outcome: 'Outcome',
    anyOutcome: 'All outcomes',
    mailbox: 'Mailbox',
    anyMailbox: 'All mailboxes',
    clear: 'Clear filters',
  },
  noSubject: '(no subject)',
  gone: 'No longer in the mirror',
  fromSender: (sender: string) => `From ${sender}`,
  removedMailbox: 'Removed mailbox',
  empty: {
    title: 'No mail journaled yet',
    body: 'The journal records each new mail that reaches your mailboxes and what came of it: the workflows it started, or why none did (no workflow matched, a sender exclusion, a guardrail that keeps automatic or bulk mail out). Connect a mailbox and publish a mail workflow: new mail then shows here.',
  },
  emptyFiltered: { title: 'No entry matches these filters', body: 'Remove a filter to see more of the journal.' },
  end: 'End of the journal.',
};

/** The chip showing a list's time window (dashboard drill-down), shared by the executions list and the journal. */
export const enListWindow = {
  label: 'Time window',
  since: (bound: string) => `From ${bound}`,
  until: (bound: string) => `Until ${bound}`,
  remove: 'Remove the time window filter',
  mailbox: 'Mailbox',
  anyMailbox: 'All mailboxes',
};
