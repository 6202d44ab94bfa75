/**
 * The shapes of the mail resources as the spec gives them (SPEC.md, Resources). The views are typed
 * with these; the data hooks check that the API's answers fit them, so a drift fails `tsc` there.
 */

export type MailboxProvider = 'mail_provider_a' | 'mail_provider_b' | 'imap';
export type MailboxStatus = 'active' | 'disconnected' | 'error';
export type OAuthProvider = 'oauth_provider_a' | 'oauth_provider_b';
export const oauthProviders: readonly OAuthProvider[] = ['oauth_provider_a', 'oauth_provider_b'];

export interface MailboxBackfill {
  status: 'pending' | 'running' | 'done' | 'failed';
  progressPct: number | null;
  oldestSyncedAt: string | null;
}

export interface MailboxError {
  kind: string;
  code?: string;
  message?: string;
  at?: string;
  operation?: string;
  httpStatus?: number;
}

export interface Mailbox {
  id: string;
  provider: MailboxProvider;
  address: string;
  status: MailboxStatus;
  syncMode: 'full' | 'processing_only';
  connectedAt: string;
  backfill: MailboxBackfill | null;
  lastDeltaAt: string | null;
  lastSuccessfulSyncAt?: string | null;
  lastError: MailboxError | null;
  messageCount: number;
}

export interface RemovalImpact {
  mailboxId: string;
  address: string;
  messages: number;
  pendingExecutions: number;
  workflows: { id: string; name: string; link: 'trigger' | 'sender' }[];
}

export interface Person {
  name?: string | null;
  email: string;
}

export interface MessageFlags {
  seen: boolean;
  flagged: boolean;
  draft: boolean;
  sent: boolean;
}

export type FolderRole = 'inbox' | 'starred' | 'sent' | 'drafts' | 'archive' | 'all' | 'spam' | 'trash';

export interface Folder {
  key: string;
  role: FolderRole | null;
  label: string | null;
  name: string | null;
  parentKey: string | null;
  color: string | null;
  depth: number;
  unreadCount: number;
  totalCount: number;
}

export interface Thread {
  id: string;
  mailboxId: string;
  subject: string | null;
  lastMessageAt: string;
  messageCount: number;
  unreadCount: number;
  participants: Person[];
  participantCount: number;
  snippet: string | null;
  hasAttachments: boolean;
  flags: MessageFlags;
  /** Free-form; carries the latest ai.classify label of its messages under `ai`. */
  classification?: Record<string, unknown>;
}

export interface MessageSummary {
  id: string;
  mailboxId: string;
  from: Person | null;
  subject: string | null;
  snippet: string | null;
  receivedAt: string;
  folderLabels: string[];
  flags: MessageFlags;
  hasAttachments: boolean;
}

export interface Attachment {
  id: string;
  position: number;
  filename: string;
  mime: string;
  size: number;
  disposition: 'attachment' | 'inline';
  contentId: string | null;
  downloadUrl: string;
}

/** What a new message starts with (an unsubscribe mail the list asks for). */
export interface MailPrefill {
  to: string;
  subject: string;
  body: string;
}

export interface FullMessage extends MessageSummary {
  threadId: string | null;
  bodyText: string | null;
  bodyHtmlSafe: string | null;
  hasRemoteImages: boolean;
  bodyComplete: boolean;
  headersSubset: { to: Person[]; cc: Person[]; replyTo: Person[]; date: string | null; messageIdHeader: string | null };
  attachments: Attachment[];
  /** How to leave the list this message came from: one click (RFC 8058) and/or a prepared mail. */
  listUnsubscribe: { oneClick: boolean; mailto: MailPrefill | null } | null;
  /** Free-form; an ai.classify step writes `ai` {label, confidence, nodeId, executionId}. */
  classification: Record<string, unknown>;
}

export type ThreadFilter = 'all' | 'unread' | 'flagged' | 'attachments';
export const threadFilters: readonly ThreadFilter[] = ['all', 'unread', 'flagged', 'attachments'];

export type ThreadAction =
  | 'markRead'
  | 'markUnread'
  | 'flag'
  | 'unflag'
  | 'archive'
  | 'unarchive'
  | 'trash'
  | 'restore'
  | 'spam'
  | 'notSpam'
  | 'deletePermanently'
  | 'move';

export type NotificationKind = 'mailbox.error' | 'mailbox.recovered' | 'mailbox.stalled' | 'mailbox.removed' | 'execution.failed' | 'approval.pending' | 'workflow.notice' | 'send.held' | 'support.reply';

export interface AppNotification {
  id: string;
  kind: string;
  severity: 'info' | 'warning' | 'error';
  params: Record<string, unknown>;
  link: string | null;
  createdAt: string;
  readAt: string | null;
}

export type ConnectionKind = 'apiKey' | 'bearer' | 'basic' | 'query';
export const connectionKinds: readonly ConnectionKind[] = ['apiKey', 'bearer', 'basic', 'query'];

export interface Connection {
  id: string;
  type: string;
  name: string;
  scope: 'member' | 'org';
  kind?: ConnectionKind | null;
  hint?: string | null;
  capabilities?: string[];
  /** `http_generic`: the hosts its secret may be sent to (absent on one made before hosts existed). */
  allowedHosts?: string[];
  createdAt: string;
  updatedAt: string;
}

export const oauthCapabilities = ['mail', 'drive', 'calendar', 'sheets', 'files', 'sites'] as const;
export type OAuthCapability = (typeof oauthCapabilities)[number];

export interface OAuthAppState {
  provider: OAuthProvider;
  configured: boolean;
  clientId: string | null;
  hasSecret: boolean;
  clientSecretHint: string | null;
  status: 'active' | 'disabled' | null;
  redirectUri: string;
  scopes: string[];
  scopesByCapability: Record<OAuthCapability, string[]>;
  clientIdPattern: string;
  clientIdHint: string;
  updatedAt: string | null;
}
