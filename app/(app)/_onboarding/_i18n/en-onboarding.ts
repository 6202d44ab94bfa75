/** English strings of first contact: the required password change and the home page's "Get started" list. */

export const enOnboarding = {
  password: {
    title: 'Choose your own password',
    description: 'You signed in with a generated password. Choose a password of your own to continue.',
  },
  getStarted: {
    title: 'Get started',
    description: 'A few steps to put your mail to work. Each one ticks itself when it is done.',
    progress: (done: number, total: number) => `${done} of ${total} done`,
    done: 'Done',
    todo: 'To do',
    hide: 'Hide',
    hideLabel: 'Hide the “Get started” list',
    allDone: 'All set: your mail is working for you.',
    dismiss: 'Dismiss',
    show: 'Show the “Get started” list',
    loadError: 'The list of first steps could not be loaded.',
    steps: {
      mailbox: { label: 'Connect a mailbox', hint: 'Google, Microsoft 365 or any IMAP server.', action: 'Connect' },
      template: { label: 'Try a template on your mail', hint: 'Install a starter template, then use “Try on my mail”.', action: 'Browse templates' },
      publish: { label: 'Publish a workflow', hint: 'A published workflow runs on new mail by itself.', action: 'Open workflows' },
      invite: { label: 'Invite your team', hint: 'Send an invitation to a colleague.', action: 'Invite' },
    },
  },
};
