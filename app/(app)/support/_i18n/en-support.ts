/**
 * English strings of the Support section: the list of threads with the team operating the instance, the
 * "new request" and "new conversation" forms, a thread with its composer, the unlinked explanation.
 */
import { pluralEn as plural } from '@/app/i18n/plural';

export const enSupport = {
  metaTitle: 'Support',
  title: 'Support',
  description: 'Ask the team operating this service for a change, or talk to them about anything else.',
  newRequest: 'New request',
  newConversation: 'New conversation',
  kinds: { request: 'Request', conversation: 'Conversation' },
  /** Spec, Resources → Support thread: a request's six statuses, then a conversation's two. */
  statuses: {
    received: 'Received',
    in_study: 'In study',
    quoted: 'Quoted',
    in_progress: 'In progress',
    delivered: 'Delivered',
    rejected: 'Rejected',
    open: 'Open',
    closed: 'Closed',
  },
  unassigned: 'Unassigned',
  assignee: (name: string) => `Assigned to ${name}`,
  author: (name: string) => `From ${name}`,
  unread: 'New reply',
  pending: 'Sending…',
  pendingHint: 'Waiting to reach the team: it is stored here and sent as soon as the team can be reached.',
  lastActivity: (when: string) => `Last activity ${when}`,
  messageCount: (count: number) => plural(count, 'message', 'messages'),
  syncedAt: (when: string) => `Last exchange with the team: ${when}`,
  syncedNever: 'Last exchange with the team: never',
  listLabel: 'Support threads',
  navUnread: (count: number) => `${plural(count, 'unread reply', 'unread replies')}`,
  empty: {
    title: 'No support thread yet',
    body: 'Support is how you reach the team operating this service: open a request when you need a change (a new workflow, an integration, a fix, a quote), or a conversation for a question. Their answers arrive here and in your notifications.',
  },
  emptyUnlinked: {
    title: 'No support thread',
    body: 'Threads with the team will show here once the instance is connected.',
  },
  unlinked: {
    title: 'Support is not connected on this instance',
    body: 'This instance is not connected to the control plane of the team operating it, so new requests and messages cannot be sent.',
    admin:
      'An administrator connects it by setting three environment variables, CONTROL_PLANE_URL, CONTROL_PLANE_INSTANCE_ID and CONTROL_PLANE_SECRET, then restarting the service (see the configuration table of the README).',
    readable: 'Existing threads stay readable.',
  },
  fields: {
    required: 'This field is required.',
    tooLong: (max: number) => `At most ${max.toLocaleString('en')} characters.`,
    counter: (used: number, max: number) => `${used.toLocaleString('en')} / ${max.toLocaleString('en')}`,
  },
  request: {
    title: 'New request',
    description: 'Ask the team for a change: a new capability, an integration, a fix. They answer here, and may send a quote.',
    titleLabel: 'Title',
    titlePlaceholder: 'e.g. Import our invoices from the accounting tool',
    need: 'What you need',
    needHint: 'What it should do, for whom, and by when if it matters.',
    submit: 'Send request',
    submitting: 'Sending…',
  },
  conversation: {
    title: 'New conversation',
    description: 'Ask the team a question or tell them something. They answer here.',
    subject: 'Subject',
    message: 'Message',
    submit: 'Start conversation',
    submitting: 'Starting…',
  },
  thread: {
    back: 'Back to Support',
    metaTitle: 'Support thread',
    messagesLabel: 'Messages',
    team: 'Team',
    startedBy: (name: string) => `Opened by ${name}`,
    noMessages: 'No message in this thread yet.',
    reply: 'Reply',
    replyPlaceholder: 'Write to the team…',
    send: 'Send',
    sending: 'Sending…',
    shortcut: 'Ctrl+Enter or ⌘+Enter sends.',
    unlinked: 'Replies cannot be sent while this instance is not connected to the team operating it.',
    notFound: {
      title: 'Thread not found',
      body: 'This support thread does not exist, or it is not one you can see.',
    },
  },
};
