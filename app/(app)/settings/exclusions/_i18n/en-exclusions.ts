/** English strings of Settings → Exclusions (senders whose mail starts no workflow). */

export const enExclusions = {
  metaTitle: 'Exclusions',
  title: 'Sender exclusions',
  description: 'Mail from these senders or domains starts no workflow.',
  explanation:
    'Exclusions are checked before any mail trigger: a message from an excluded address, or from an excluded domain or one of its subdomains, starts no workflow at all. The message journal shows such mail with the outcome excluded_member (your list) or excluded_org (the organisation’s list).',
  mine: 'My exclusions',
  mineDescription: 'Apply to your own workflows only.',
  org: 'Organisation exclusions',
  orgDescription: 'Apply to the workflows of every member. Only administrators see and change this list.',
  kinds: { address: 'Address', domain: 'Domain' },
  columns: { kind: 'Kind', value: 'Value', note: 'Note', added: 'Added', actions: 'Actions' },
  emptyMine: { title: 'No exclusion yet', body: 'Add an address or a domain whose mail should never start your workflows.' },
  emptyOrg: { title: 'No organisation exclusion', body: 'Add an address or a domain whose mail should start no workflow of anyone.' },
  form: {
    title: 'Add an exclusion',
    kind: 'Kind',
    value: 'Value',
    valuePlaceholder: { address: 'someone@example.com', domain: 'example.com' },
    valueHint: { address: 'One sender’s email address.', domain: 'The domain and all its subdomains. International names in their punycode form (xn--…).' },
    preview: (stored: string) => `Will be stored as ${stored}`,
    note: 'Note',
    notePlaceholder: 'Why this sender is excluded',
    submit: 'Add exclusion',
    submitting: 'Adding…',
    added: (value: string) => `${value} is excluded.`,
  },
  messages: {
    valueRequired: 'Enter an address or a domain.',
    invalidAddress: 'Enter an email address, such as someone@example.com.',
    invalidDomain: 'Enter a domain name, such as example.com (no @ inside, at least one dot).',
    valueTooLong: (max: number) => `At most ${max} characters.`,
    noteTooLong: (max: number) => `The note can have at most ${max} characters.`,
    duplicate: 'This sender or domain is already in the list.',
    limitReached: 'The list is full (1,000 entries). Remove an entry first.',
  },
  delete: 'Delete',
  deleteLabel: (value: string) => `Delete exclusion ${value}`,
  deleteTitle: (value: string) => `Stop excluding “${value}”?`,
  deleteBody: 'Mail from this sender can start workflows again from now on. Mail already received is not processed again.',
  deleteConfirm: 'Delete exclusion',
  deleting: 'Deleting…',
};

export const enExclusionErrors = {
  'exclusion.not_found': 'This exclusion no longer exists.',
  'exclusion.duplicate': 'This sender or domain is already excluded.',
  'exclusion.limit_reached': 'The list of excluded senders is full: remove one first.',
};
