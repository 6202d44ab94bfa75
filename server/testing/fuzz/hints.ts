/**
 * Where a schema alone cannot give a value that reaches a handler, the fuzz substitutes fixtures of
 * the world: ids in paths, column keys and cells of the fixture table, an invitation token, the
 * sign-in of the fixture member. This is the one place that knows routes by name; a route it does not
 * know is still fuzzed, with generated values (a random uuid for a uuid parameter).
 */
import { testPassword } from '../factories';
import type { FuzzOperation } from './operations';
import type { Hint, Schema } from './schema';
import { JsonString, WorldRef, type Pointer } from './values';
import { fixtureColumns } from './world';

/** Path parameters bound to a fixture: the first rule whose pattern matches the path template wins. */
const pathRules: { pattern: RegExp; param: string; ref: string }[] = [
  { pattern: /^\/api\/v1\/tables\/\{id\}/, param: 'id', ref: 'table.id' },
  { pattern: /^\/api\/v1\/tables\/\{id\}\/columns\/\{key\}/, param: 'key', ref: 'static.note' },
  { pattern: /^\/api\/v1\/tables\/\{id\}\/rows\/\{rowId\}/, param: 'rowId', ref: 'table.rowId' },
  { pattern: /^\/api\/v1\/api-keys\/\{id\}/, param: 'id', ref: 'memberKey.id' },
  { pattern: /^\/api\/v1\/admin\/api-keys\/\{id\}/, param: 'id', ref: 'memberKey.id' },
  { pattern: /^\/api\/v1\/admin\/members\/invitations\/\{id\}/, param: 'id', ref: 'invitation.id' },
  { pattern: /^\/api\/v1\/admin\/members\/\{id\}/, param: 'id', ref: 'victim.id' },
  { pattern: /^\/api\/v1\/mailboxes\/\{id\}/, param: 'id', ref: 'mailbox.id' },
  { pattern: /^\/api\/v1\/credentials\/\{id\}/, param: 'id', ref: 'connection.id' },
  { pattern: /^\/api\/v1\/notifications\/\{id\}/, param: 'id', ref: 'notification.id' },
  { pattern: /^\/api\/v1\/(admin\/oauth-apps|oauth)\/\{provider\}/, param: 'provider', ref: 'static.oauth_provider_a' },
  { pattern: /^\/api\/v1\/threads\/\{id\}/, param: 'id', ref: 'mail.threadId' },
  { pattern: /^\/api\/v1\/messages\/send\/\{id\}\/undo$/, param: 'id', ref: 'outbound.id' },
  { pattern: /^\/api\/v1\/messages\/\{id\}/, param: 'id', ref: 'mail.messageId' },
  { pattern: /^\/api\/v1\/messages\/\{id\}\/attachments\/\{position\}/, param: 'position', ref: 'static.1' },
  { pattern: /^\/api\/v1\/executions\/incidents\/\{id\}/, param: 'id', ref: 'incident.id' },
  { pattern: /^\/api\/v1\/executions\/\{id\}\/cancel$/, param: 'id', ref: 'execution.waitingId' },
  { pattern: /^\/api\/v1\/executions\/\{id\}/, param: 'id', ref: 'execution.id' },
  { pattern: /^\/api\/v1\/workflows\/\{id\}\/executions\//, param: 'id', ref: 'execution.workflowId' },
  { pattern: /^\/api\/v1\/workflows\/\{id\}/, param: 'id', ref: 'workflow.id' },
  { pattern: /^\/api\/v1\/workflows\/\{id\}\/versions\/\{versionId\}/, param: 'versionId', ref: 'workflow.versionId' },
  { pattern: /^\/api\/v1\/exclusions\/\{id\}/, param: 'id', ref: 'exclusion.id' },
  { pattern: /^\/api\/v1\/eval-runs\/\{id\}/, param: 'id', ref: 'evalRun.id' },
  { pattern: /^\/api\/v1\/admin\/exclusions\/\{id\}/, param: 'id', ref: 'orgExclusion.id' },
  { pattern: /^\/api\/v1\/review\/\{id\}/, param: 'id', ref: 'review.id' },
  { pattern: /^\/api\/v1\/(admin\/)?templates\/\{id\}/, param: 'id', ref: 'template.id' },
  { pattern: /^\/hooks\/wf\/\{token\}/, param: 'token', ref: 'webhook.token' },
  { pattern: /^\/api\/v1\/approvals\/t\/\{token\}/, param: 'token', ref: 'approval.token' },
  { pattern: /^\/api\/v1\/approvals\/t\/\{token\}\/\{decision\}/, param: 'decision', ref: 'static.approve' },
  { pattern: /^\/api\/v1\/approvals\/\{id\}/, param: 'id', ref: 'approval.id' },
  { pattern: /^\/api\/v1\/(admin\/llm\/connections|llm-connections)\/\{id\}/, param: 'id', ref: 'llmConnection.id' },
  { pattern: /^\/api\/v1\/assistant\/conversations\/\{id\}/, param: 'id', ref: 'assistantConversation.id' },
  { pattern: /^\/api\/v1\/contacts\/signatures\/\{id\}/, param: 'id', ref: 'signature.id' },
  { pattern: /^\/api\/v1\/contacts\/defaults\/mailboxes\/\{mailboxId\}/, param: 'mailboxId', ref: 'mailbox.id' },
  { pattern: /^\/api\/v1\/support\/threads\/\{id\}/, param: 'id', ref: 'supportThread.id' },
];

/** Existing ids of other kinds or owners: "another member's uuid" and cross-resource confusion. */
export const foreignIds = [
  'victimKey.id',
  'victim.id',
  'admin.id',
  'table.id',
  'invitation.id',
  'table.otherRowId',
  'victimMailbox.id',
  'victimConnection.id',
  'victimNotification.id',
  'mail.threadId',
  'mail.messageId',
  'victimExecution.id',
  'victimExecution.workflowId',
  'victimIncident.id',
  'victimWorkflow.id',
  'victimExclusion.id',
  'orgExclusion.id',
  'victimApproval.id',
  'victimReview.id',
  'disabledTemplate.id',
  'victimEvalRun.id',
  'llmConnection.id',
  'victimAssistantConversation.id',
  'victimSignature.id',
  'victimSupportThread.id',
];

export function pathParamRef(operation: FuzzOperation, name: string): WorldRef | string | null {
  const rule = pathRules.find((candidate) => candidate.param === name && candidate.pattern.test(operation.path));
  if (!rule) return null;
  if (rule.ref.startsWith('static.')) return rule.ref.slice('static.'.length);
  return new WorldRef(rule.ref);
}

function fixtureCells(): Record<string, unknown> {
  return {
    name: new WorldRef('unique.text'),
    count: 42,
    active: true,
    day: '2024-02-29',
    at: '2024-02-29T12:34:56Z',
    kind: 'b',
    mail: new WorldRef('unique.email'),
    note: 'fuzz note',
    constructor: 'fuzz constructor',
  };
}

/** A valid draft: one webhook trigger (the node type every build has). */
function fixtureGraph(): Record<string, unknown> {
  return { nodes: [{ id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {} }], connections: [] };
}

const last = (pointer: Pointer) => pointer[pointer.length - 1];

/** Values for body properties, by property name and, where the name is ambiguous, by route. */
export function bodyHint(operation: FuzzOperation): Hint {
  const path = operation.path;
  return (pointer, schema: Schema) => {
    const name = last(pointer);
    if (name === 'cells' && schema.type === 'object') return fixtureCells();
    if (name === 'csv') return new WorldRef('unique.csv');
    if (name === 'mapping') return { Name: 'name', Count: 'count', Note: 'note', Constructor: 'constructor' };
    if (name === 'id' && pointer.includes('operations')) return new WorldRef('table.rowId');
    if (name === 'keys' && /\/columns\/reorder$/.test(path)) return [...fixtureColumns.map((column) => column.key)].reverse();
    if (name === 'token' && /invitations\/accept$/.test(path)) return new WorldRef('invitation.token');
    if (name === 'email' && /\/auth\/login$/.test(path)) return new WorldRef('member.email');
    if (name === 'password' && /\/auth\/login$/.test(path)) return testPassword;
    if (name === 'currentPassword') return testPassword;
    if (name === 'email') return new WorldRef('unique.email');
    if (name === 'slug' || (name === 'key' && pointer.includes('column'))) return new WorldRef('unique.slug');
    if (name === 'label' && pointer.includes('column')) return new WorldRef('unique.text');
    if (name === 'scopes') return ['tables:read'];
    // Connect probes real servers: a name that never resolves (RFC 2606) answers at once, never a live port.
    if ((name === 'imapHost' || name === 'smtpHost') && /\/mailboxes\/imap$/.test(path)) return 'fuzz.invalid';
    if (name === 'address' && /\/mailboxes\/imap$/.test(path)) return new WorldRef('unique.email');
    // Resync and backfill windows that reach the handler: one day ago (the document's example is years old).
    if (name === 'since' && /\/mailboxes\/\{id\}\/(resync|backfill)$/.test(path)) return new Date(Date.now() - 24 * 3600 * 1000).toISOString();
    // A bulk undo's window that reaches the handler: the last day, up to now (the document's example is years old).
    if (name === 'from' && /\/workflows\/\{id\}\/executions\/undo$/.test(path)) return new Date(Date.now() - 24 * 3600 * 1000).toISOString();
    if (name === 'to' && /\/workflows\/\{id\}\/executions\/undo$/.test(path)) return new WorldRef('unique.absent', () => undefined);
    if (name === 'type' && /\/credentials$/.test(path)) return 'http_generic';
    if (name === 'data' && /\/credentials(\/\{id\})?$/.test(path)) return { kind: 'bearer', token: 'fuzz-token-value' };
    if (name === 'clientId' && /\/oauth-apps\//.test(path)) return '123456789012-fuzz.apps.googleusercontent.com';
    if (name === 'capability') return 'mail';
    if (name === 'clientToken') return new WorldRef('unique.token');
    // `move` takes a folder and every thread fixture has something to move there.
    if (name === 'action' && /\/threads\/\{id\}\/actions$/.test(path)) return 'move';
    if (name === 'folder' && /\/threads\/\{id\}\/actions$/.test(path)) return 'Archive';
    if (name === 'add' || name === 'remove') return ['fuzz-label'];
    // Workflows: a graph that validates, the member's own messages, a node that exists.
    if (name === 'graph' && /\/workflows(\/\{id\}\/graph)?$/.test(path)) return fixtureGraph();
    // Template administration: a graph that validates, and no workflowId beside it (either one or the other).
    if (name === 'graph' && /\/admin\/templates(\/\{id\})?$/.test(path)) return fixtureGraph();
    if (name === 'workflowId' && /\/admin\/templates$/.test(path)) return new WorldRef('unique.absent', () => undefined);
    // Restoring a version: no revision check (a random revision would only ever be a conflict).
    if (name === 'draftRevision' && /\/versions\/\{versionId\}\/restore$/.test(path)) return new WorldRef('unique.absent', () => undefined);
    if (name === 'messageIds' && /\/workflows\/\{id\}\/test-messages$/.test(path)) return [new WorldRef('mail.messageId')];
    if (name === 'messageId' && /\/workflows\/\{id\}\/test-runs$/.test(path)) return new WorldRef('mail.messageId');
    // Compose: the member's mailbox and message, recipients that validate.
    if (/\/messages\/send$/.test(path)) {
      if (name === 'mailboxId') return new WorldRef('mail.mailboxId');
      if (name === 'to') return [new WorldRef('unique.email')];
      if (name === 'cc' || name === 'bcc') return [];
      if (name === 'attachments') return [{ messageId: new WorldRef('mail.messageId'), position: 1 }];
      if (name === 'messageId') return new WorldRef('mail.messageId');
      if (name === 'position') return 1;
    }
    // Evaluation runs: the fixture workflow starts on a webhook, so given trigger data reaches the handler.
    if (name === 'source' && /\/workflows\/\{id\}\/eval-runs$/.test(path)) return { kind: 'trigger_data', items: [{ fuzz: 1 }] };
    if (name === 'versionId' && /\/workflows\/\{id\}\/eval-runs$/.test(path)) return new WorldRef('unique.absent', () => undefined);
    if (name === 'upToNodeId') return 'start';
    if (name === 'errorWorkflowId') return null;
    // Review: the member's item among the ids of a batch, a snooze that lands within 30 days, a send to resolve.
    if (name === 'ids' && /\/review\/send$/.test(path)) return [new WorldRef('review.id'), new WorldRef('victimReview.id')];
    if (name === 'until' && /\/review\/\{id\}\/snooze$/.test(path)) return new Date(Date.now() + 24 * 3600 * 1000).toISOString();
    if ((name === 'to' || name === 'cc' || name === 'bcc') && /\/review\//.test(path)) return ['fuzz@example.test'];
    // AI connections: a fresh label, a key, a public address literal (no DNS), the fixture connection in routing.
    if (/\/admin\/llm\/connections(\/\{id\})?$/.test(path)) {
      if (name === 'label') return new WorldRef('unique.text');
      if (name === 'apiKey') return 'sk-fuzz-api-key-value';
      if (name === 'baseUrl') return 'https://8.8.8.8/v1';
      if (name === 'withoutApiKey') return new WorldRef('unique.absent', () => undefined);
    }
    if (name === 'connectionId' && /\/admin\/llm\/routing$/.test(path)) return new WorldRef('llmConnection.id');
    // The address book: a card of an address that validates, the member's own mailbox and signature.
    if (/\/contacts$/.test(path)) {
      if (name === 'kind') return 'contact';
      if (name === 'value') return new WorldRef('unique.email');
      if (name === 'mailboxId') return new WorldRef('mailbox.id');
      // The member's card: the shared layer's fields beside it would be a 400 before the handler.
      if (name === 'layer') return 'member';
      if (name === 'displayName' || name === 'status' || name === 'orgNotes') return new WorldRef('unique.absent', () => undefined);
    }
    if (name === 'signatureId' && /\/contacts(\/defaults\/|$)/.test(path)) return new WorldRef('signature.id');
    // The address book's import: a one-card vCard of a fresh address into the member's own layer.
    if (/\/contacts\/import(\/preview)?$/.test(path)) {
      if (name === 'format') return 'vcard';
      if (name === 'layer') return 'member';
      if (name === 'mailboxId') return new WorldRef('mailbox.id');
      if (name === 'file') return new WorldRef('unique.email', (email) => `BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Fuzz\r\nEMAIL:${String(email)}\r\nEND:VCARD\r\n`);
    }
    if (name === 'kind' && /\/exclusions$/.test(path)) return 'domain';
    if (name === 'value' && /\/exclusions$/.test(path)) return new WorldRef('unique.domain');
    return undefined;
  };
}

/** Values for query parameters: a column to sort on, a filter that parses, a real cursor. */
export function queryHint(operation: FuzzOperation): Hint {
  return (pointer) => {
    const name = last(pointer);
    if (name === 'sort') return 'count';
    if (name === 'filter' && /\/threads$/.test(operation.path)) return 'unread';
    if (name === 'filter') {
      return new JsonString([
        { column: 'name', op: 'eq', value: 'alpha' },
        { column: 'count', op: 'gte', value: 0 },
      ]);
    }
    if (name === 'q') return 'alpha';
    if (name === 'kind' && /\/contacts$/.test(operation.path)) return 'contact';
    if (/\/contacts\/export\.(vcf|csv)$/.test(operation.path)) {
      if (name === 'layer') return 'member';
      if (name === 'mailboxId') return new WorldRef('mailbox.id');
    }
    if ((name === 'value' && /\/contacts$/.test(operation.path)) || (name === 'address' && /\/contacts\/resolve$/.test(operation.path))) return new WorldRef('unique.email');
    if (name === 'actor') return new WorldRef('admin.id');
    if (name === 'mailboxId') return new WorldRef('mail.mailboxId');
    if (name === 'workflowId' && /^\/api\/v1\/executions$/.test(operation.path)) return new WorldRef('execution.workflowId');
    if (name === 'outboundId') return new WorldRef('review.id');
    if (name === 'folder') return 'inbox';
    if (name === 'month' && /\/admin\/llm\/usage$/.test(operation.path)) return new Date().toISOString().slice(0, 7);
    if (name === 'cursor') return new WorldRef(`cursor:${operation.id}.value`);
    return undefined;
  };
}
