/**
 * English strings of "why didn't it run?": the reading pane's automation panel (the message journal)
 * and the reasons of "Try on my mail" (evaluation runs). Reasons are sentences a person reads; the
 * API's codes (`guardrail:bulk`, `includeMailingLists`…) are only shown in the details.
 */
import { pluralEn as plural } from './plural';

export const enWhy = {
  /** What the mail is, for each guardrail (the start of "…, and this workflow skips …"). */
  kinds: {
    from_self: 'it was sent from this mailbox',
    delivery_report: 'it is a delivery report (a bounce or a read receipt)',
    auto_reply: 'it is an automatic reply (out of office or similar)',
    no_reply: 'the sender is a no-reply address',
    mailing_list: 'the sender is a mailing list',
    bulk: 'it is bulk mail (a newsletter or another mass mailing)',
  } as Record<string, string>,
  skips: {
    from_self: 'mail sent from the mailbox never starts a workflow',
    delivery_report: 'this workflow skips automatic mail',
    auto_reply: 'this workflow skips automatic mail',
    no_reply: 'this workflow skips no-reply senders',
    mailing_list: 'this workflow skips list mail',
    bulk: 'this workflow skips bulk mail',
  } as Record<string, string>,
  filters: {
    folders: 'the mail is not in a folder this workflow watches',
    from: 'the sender does not match this workflow’s sender filter',
    subject: 'the subject contains none of this workflow’s words',
    hasAttachments: 'the attachment condition of this workflow does not match',
    requireSignals: 'the mail lacks a signal this workflow requires',
    excludeSignals: 'the mail carries a signal this workflow excludes',
  } as Record<string, string>,
  clauses: {
    excluded: 'the sender is on an exclusion list',
    other_mailbox: 'this workflow watches other mailboxes',
    paused: 'this workflow is paused',
    invalid_trigger: 'the settings of its trigger are not valid',
    unknown: 'its trigger does not match',
  },
  /** The trigger options that let a guarded kind of mail in, as a person reads them. */
  options: {
    includeAutoReplies: 'Include automatic mail',
    includeNoReply: 'Include no-reply senders',
    includeMailingLists: 'Include list and bulk mail',
  } as Record<string, string>,
  guardrailClause: (kind: string, skips: string) => `${kind} and ${skips}`,
  includeHint: (option: string) => `To let such mail in, turn on “${option}” in its trigger.`,
  code: 'Code',
  panel: {
    title: 'Automation',
    label: 'What automation did with this mail',
    loading: 'Checking what automation did…',
    error: 'Could not read what automation did with this mail.',
    notHandled:
      'Not handled as new mail: it was already there when the mailbox was connected, or came back with a resync. Workflows start on new mail only.',
    excluded_org: 'Not handled: the sender is on your organisation’s exclusion list.',
    excluded_member: 'Not handled: the sender is on your exclusion list.',
    guardrail: (kind: string) => `No workflow started: ${kind}.`,
    unmatched: 'No workflow started: it did not match their filters.',
    dispatched: (count: number) => `Started ${plural(count, 'workflow', 'workflows')}.`,
    workflows: 'Your workflows started by mail',
    noWorkflows: 'You have no published workflow started by mail.',
    started: 'Started',
    notStarted: (clause: string) => `Not started: ${clause}.`,
    wouldStart: 'Would start on mail like this now, but was not started on this one (the mail came before the workflow was published or changed, or was not handled as new mail).',
    runs: 'Runs',
    run: (when: string) => `Run of ${when}`,
    testRun: 'test run',
    deletedWorkflow: 'Deleted workflow',
  },
  eval: {
    wouldNotRun: (clause: string) => `Would not run: ${clause}.`,
    ran: (path: string) => `Runs: ${path}`,
    wouldDo: (effects: string) => `Would do: ${effects}`,
    doesNothing: 'Runs, and would do nothing outside the run.',
    reasonsTitle: 'Why cases would not run',
    skipped: (count: number, label: string) => `${count.toLocaleString('en')} skipped: ${label}`,
    labels: {
      'guardrail:from_self': 'mail from this mailbox (always skipped)',
      'guardrail:delivery_report': 'automatic mail guardrail (delivery reports)',
      'guardrail:auto_reply': 'automatic mail guardrail',
      'guardrail:no_reply': 'no-reply guardrail',
      'guardrail:mailing_list': 'list mail guardrail',
      'guardrail:bulk': 'bulk mail guardrail',
      excluded: 'excluded senders',
      'filtered:folders': 'folder filter',
      'filtered:from': 'sender filter',
      'filtered:subject': 'subject filter',
      'filtered:hasAttachments': 'attachment filter',
      'filtered:requireSignals': 'required signals',
      'filtered:excludeSignals': 'excluded signals',
      other_mailbox: 'another mailbox',
      invalid_trigger: 'trigger settings not valid',
    } as Record<string, string>,
    questions: {
      includeAutoReplies: 'include automatic mail?',
      includeNoReply: 'include no-reply senders?',
      includeMailingLists: 'include list and bulk mail?',
    } as Record<string, string>,
    withQuestion: (summary: string, question: string) => `${summary}; ${question}`,
    include: (option: string) => `Turn on “${option}”`,
    including: 'Updating the draft…',
    included: (option: string) => `The draft now has “${option}” on. Try again to see what it would do.`,
    includeFailed: 'The draft could not be updated.',
    noMailTrigger: 'The draft has no mail trigger to change.',
  },
};
