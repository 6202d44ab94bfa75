/**
 * The fixtures a fuzzed operation acts on, so malformed input reaches handlers rather than stopping
 * at the 404 of an unknown id: an administrator, a member and a third member (the target of
 * administration), their sessions and API keys, a table with typed columns and rows, an API key and
 * an invitation to revoke, a mailbox of the member and one of the third member. Pieces are built on
 * first use through the real REST surface (or the test factories for members, keys and mailboxes:
 * connecting one needs real mail servers), and rebuilt when a request that succeeded may have consumed
 * them (a deleted table, a revoked key, a signed-out session): see `markUsedAfterSuccess`.
 */
import { randomBytes, scryptSync } from 'node:crypto';
import { verifyPassword } from '../../core/auth/password';
import type { Scope } from '../../core/auth/scopes';
import { db } from '../../core/db';
import { clientIpHeader } from '../../core/http/client-headers';
import { notify } from '../../domains/notifications/notify';
import { hashLinkToken, newLinkToken } from '../../domains/approvals/tokens';
import { createOutbound } from '../../domains/outbound/create';
import { createApiKeyFor, createMember, testPassword, type TestMember } from '../factories';
import { createExecution, createIncident, createStep } from '../execution-factories';
import { webhookTokenHashOf } from '../../engine/dispatch/webhook';
import { createMailbox } from '../mail-factories';
import { createWorkflow } from '../workflow-factories';
import { buildMailPiece } from './mail-world';
import type { Dispatcher } from './dispatch';

export type Owner = 'admin' | 'member';

export type Credential =
  | { label: string; kind: 'none' }
  | { label: string; kind: 'session'; owner: Owner }
  | { label: string; kind: 'key'; owner: Owner; scopes: Scope[] };

/**
 * The fixture table's columns: one of each type, the first is the key column, and two whose keys are
 * names on Object.prototype (the only two a column key's pattern allows), so that a lookup by key that
 * is not an own-property lookup shows up wherever the fuzz sorts, filters, writes or imports.
 */
export const fixtureColumns = [
  { key: 'name', label: 'Name', type: 'text', isKey: true },
  { key: 'count', label: 'Count', type: 'number' },
  { key: 'active', label: 'Active', type: 'boolean' },
  { key: 'day', label: 'Day', type: 'date' },
  { key: 'at', label: 'At', type: 'datetime' },
  { key: 'kind', label: 'Kind', type: 'select', options: ['a', 'b'] },
  { key: 'mail', label: 'Mail', type: 'email' },
  { key: 'note', label: 'Note', type: 'text' },
  { key: 'constructor', label: 'Constructor', type: 'text' },
  { key: 'prototype', label: 'Prototype', type: 'number' },
] as const;

/** Keys of a rate-limited credential are replaced before they reach the per-key limit (600 a minute). */
const keyUsesBeforeRotation = 400;

type Piece = Record<string, unknown>;

let lowCostHash: Promise<string> | null = null;

/**
 * The fixture members' password hash, at a low scrypt cost (N = 2^10 instead of 2^15), in the stored
 * form `scrypt$N$r$p$salt$hash` whose parameters verifyPassword reads back: a fuzzed sign-in or
 * password change that reaches the check then costs about a millisecond instead of about 70, which
 * keeps the fuzz within its time bound. Checked once against verifyPassword, so a change of the
 * stored form fails here loudly rather than turning every sign-in into a silent 401.
 */
function fixturePasswordHash(): Promise<string> {
  lowCostHash ??= (async () => {
    const salt = randomBytes(16);
    const [N, r, p] = [1024, 8, 1];
    const hash = scryptSync(testPassword, salt, 32, { N, r, p });
    const stored = ['scrypt', N, r, p, salt.toString('base64url'), hash.toString('base64url')].join('$');
    if (!(await verifyPassword(testPassword, stored))) throw new Error('fuzz world: the low-cost fixture hash is not in the form verifyPassword reads');
    return stored;
  })();
  return lowCostHash;
}

async function fixtureMember(role: 'admin' | 'member', name: string): Promise<Piece> {
  const member = await createMember({ role, name });
  await db().member.update({ where: { id: member.id }, data: { passwordHash: await fixturePasswordHash() } });
  return { ...member };
}

/** Fixture builds across all worlds, and the time they took: the cost of keeping fixtures alive. */
export const fixtureFigures = { builds: 0, ms: 0 };

export class World {
  private readonly pieces = new Map<string, Promise<Piece>>();
  private readonly builders = new Map<string, () => Promise<Piece>>();
  private readonly keyUses = new Map<string, number>();
  private counter = 0;
  private readonly createdTables = new Set<string>();

  constructor(
    private readonly dispatch: Dispatcher,
    private readonly tag: string,
  ) {}

  /** A named piece built by the caller (a cursor obtained through the fuzzed operation itself). */
  define(name: string, build: () => Promise<Piece>): void {
    this.builders.set(name, build);
  }

  /** `piece.field`, building the piece on first use; `unique.*` gives a fresh value each time. */
  async resolve(name: string): Promise<unknown> {
    const [piece, field] = splitName(name);
    if (piece === 'unique') return this.unique(field);
    const value = await this.piece(piece);
    if (!Object.hasOwn(value, field)) throw new Error(`fuzz world: no ${name}`);
    return value[field];
  }

  /** After a successful non-GET request, every piece it referenced may be gone: rebuild on next use. */
  markUsedAfterSuccess(pieces: Iterable<string>): void {
    for (const piece of pieces) this.drop(piece);
  }

  async headersFor(credential: Credential): Promise<{ headers: Record<string, string>; pieces: string[] }> {
    switch (credential.kind) {
      case 'none':
        return { headers: {}, pieces: [] };
      case 'session': {
        const member = (await this.piece(credential.owner)) as unknown as TestMember;
        return { headers: { cookie: member.cookie }, pieces: [credential.owner] };
      }
      case 'key': {
        const name = `key:${credential.owner}:${credential.scopes.join(' ')}`;
        const uses = (this.keyUses.get(name) ?? 0) + 1;
        this.keyUses.set(name, uses);
        if (uses % keyUsesBeforeRotation === 0) this.drop(name);
        const key = await this.piece(name);
        return { headers: { authorization: `Bearer ${key.secret as string}` }, pieces: [name] };
      }
    }
  }

  /** Removes what would outlive the operation and weigh on the next ones (tables count against a ceiling). */
  async dispose(deleteTables: (ids: string[]) => Promise<void>): Promise<void> {
    await deleteTables([...this.createdTables]);
    this.pieces.clear();
  }

  /** Tables created by a fuzzed request that succeeded, removed with the world. */
  noteCreatedTable(id: string): void {
    this.createdTables.add(id);
  }

  private unique(field: string): string {
    const n = ++this.counter;
    switch (field) {
      case 'email':
        return `fuzz-${this.tag}-${n}@example.test`;
      case 'slug':
      case 'key':
        return `fuzz_${this.tag.replace(/[^a-z0-9]/g, '')}_${n}`.slice(0, 60);
      case 'token':
        return `fuzz-${this.tag.replace(/[^A-Za-z0-9]/g, '')}-${n}`;
      case 'domain':
        return `fuzz-${this.tag.toLowerCase().replace(/[^a-z0-9]/g, '')}-${n}.example.test`;
      case 'csv':
        return `Name,Count,Note,Constructor\nimport-${this.tag}-${n}-a,1,x,\nimport-${this.tag}-${n}-b,2,"quoted, with a comma",c\n`;
      default:
        return `fuzz ${this.tag} ${n}`;
    }
  }

  private drop(piece: string): void {
    if (piece === 'unique') return;
    this.pieces.delete(piece);
    // Pieces owned by a rebuilt member belong to the old one.
    for (const name of [...this.pieces.keys()]) {
      if (name.startsWith(`key:${piece}:`) || dependsOn[name] === piece) this.pieces.delete(name);
    }
  }

  private piece(name: string): Promise<Piece> {
    let built = this.pieces.get(name);
    if (!built) {
      built = this.build(name);
      this.pieces.set(name, built);
      built.catch(() => this.pieces.delete(name));
    }
    return built;
  }

  private async build(name: string): Promise<Piece> {
    const started = performance.now();
    try {
      return await this.buildPiece(name);
    } finally {
      fixtureFigures.builds++;
      fixtureFigures.ms += performance.now() - started;
    }
  }

  private async buildPiece(name: string): Promise<Piece> {
    const custom = this.builders.get(name);
    if (custom) return custom();
    if (name.startsWith('key:')) {
      const [, owner, ...scopes] = name.split(':');
      const member = (await this.piece(owner)) as unknown as TestMember;
      const { secret, key } = await createApiKeyFor(member, scopes.join(':').split(' ') as Scope[]);
      return { secret, id: key.id };
    }
    switch (name) {
      case 'admin':
        return fixtureMember('admin', `Fuzz admin ${this.tag}`);
      case 'member':
      case 'victim':
        return fixtureMember('member', `Fuzz ${name} ${this.tag}`);
      case 'memberKey':
      case 'victimKey': {
        const owner = (await this.piece(name === 'memberKey' ? 'member' : 'victim')) as unknown as TestMember;
        const { key } = await createApiKeyFor(owner, ['tables:read']);
        return { id: key.id };
      }
      case 'table':
        return this.buildTable();
      case 'mailbox':
      case 'victimMailbox': {
        const owner = (await this.piece(name === 'mailbox' ? 'member' : 'victim')) as unknown as TestMember;
        const mailbox = await createMailbox(owner, { address: this.unique('email') });
        return { id: mailbox.id };
      }
      case 'connection':
      case 'victimConnection': {
        const owner = (await this.piece(name === 'connection' ? 'member' : 'victim')) as unknown as TestMember;
        const answer = await this.fixtureCall('POST', '/api/v1/credentials', owner.cookie, { type: 'http_generic', name: `Fuzz ${this.unique('text')}`, data: { kind: 'bearer', token: 'fuzz-fixture-token' } });
        return { id: (answer as { id: string }).id };
      }
      case 'notification':
      case 'victimNotification': {
        const owner = (await this.piece(name === 'notification' ? 'member' : 'victim')) as unknown as TestMember;
        return notify({ memberId: owner.id, kind: 'mailbox.recovered', severity: 'info', params: { mailboxId: 'fuzz', address: 'fuzz@example.test' } });
      }
      case 'execution':
      case 'victimExecution':
        return buildExecutionPiece((await this.piece(name === 'execution' ? 'member' : 'victim')) as unknown as TestMember);
      case 'incident':
      case 'victimIncident': {
        const owner = (await this.piece(name === 'incident' ? 'member' : 'victim')) as unknown as TestMember;
        const execution = await buildExecutionPiece(owner);
        const incident = await createIncident(owner, { id: execution.id, workflowId: execution.workflowId });
        return { id: incident.id };
      }
      case 'mail':
        return buildMailPiece((await this.piece('member')) as unknown as TestMember);
      case 'outbound': {
        // A webmail send of the member still inside a long undo window (the undo route's target).
        const owner = (await this.piece('member')) as unknown as TestMember;
        const mail = (await this.piece('mail')) as unknown as { mailboxId: string };
        const { item } = await createOutbound(
          { memberId: owner.id, mailboxId: mail.mailboxId, mode: 'send', origin: 'webmail', review: false, to: ['fuzz@example.test'], subject: 'Fuzz', notBefore: new Date(Date.now() + 3_600_000) },
          db() as never,
        );
        return { id: item.id };
      }
      case 'workflow':
      case 'victimWorkflow': {
        const owner = (await this.piece(name === 'workflow' ? 'member' : 'victim')) as unknown as TestMember;
        const { workflow, version } = await createWorkflow(owner, { name: `Fuzz ${this.unique('text')}` });
        return { id: workflow.id, versionId: version!.id };
      }
      case 'evalRun':
      case 'victimEvalRun':
        return buildEvalRunPiece((await this.piece(name === 'evalRun' ? 'member' : 'victim')) as unknown as TestMember);
      case 'exclusion':
      case 'victimExclusion': {
        const owner = (await this.piece(name === 'exclusion' ? 'member' : 'victim')) as unknown as TestMember;
        const row = await db().senderExclusion.create({ data: { memberId: owner.id, kind: 'domain', value: this.unique('domain') } });
        return { id: row.id };
      }
      case 'review':
      case 'victimReview': {
        // A pending review item (a workflow's send awaiting review) with an HTML body to sanitise.
        const owner = (await this.piece(name === 'review' ? 'member' : 'victim')) as unknown as TestMember;
        const mailbox = await createMailbox(owner, { address: this.unique('email') });
        const { item } = await db().$transaction((tx) =>
          createOutbound({ memberId: owner.id, mailboxId: mailbox.id, mode: 'send', origin: 'workflow', review: true, to: ['fuzz@example.test'], subject: 'Fuzz review', bodyText: 'fuzz', bodyHtml: '<p>fuzz</p>' }, tx),
        );
        return { id: item.id, mailboxId: mailbox.id };
      }
      case 'template':
      case 'disabledTemplate': {
        // An administrator's template (no slug: editable and deletable), enabled or not.
        const graph = { nodes: [{ id: 'start', type: 'trigger.webhook', version: 1, name: 'Webhook', params: {}, onError: 'fail', position: { x: 0, y: 0 }, disabled: false }], connections: [] };
        const row = await db().template.create({
          data: { name: `Fuzz ${this.unique('text')}`, graph, nodeTypes: ['trigger.webhook@1'], enabled: name === 'template' },
        });
        return { id: row.id };
      }
      case 'signature':
      case 'victimSignature': {
        // An address book signature of the member (or of another member, for the cross-owner cases).
        const owner = (await this.piece(name === 'signature' ? 'member' : 'victim')) as unknown as TestMember;
        const row = await db().contactSignature.create({ data: { memberId: owner.id, name: `Fuzz ${this.unique('text')}`, text: '-- fuzz', html: '<p>fuzz</p>' } });
        return { id: row.id };
      }
      case 'orgExclusion': {
        const row = await db().senderExclusion.create({ data: { memberId: null, kind: 'domain', value: this.unique('domain') } });
        return { id: row.id };
      }
      case 'webhook': {
        // A published webhook workflow of the member, reached by its token.
        const owner = (await this.piece('member')) as unknown as TestMember;
        const token = this.unique('token');
        const { workflow } = await createWorkflow(owner, { name: `Fuzz webhook ${this.tag}` });
        await db().workflow.update({ where: { id: workflow.id }, data: { webhookTokenHash: webhookTokenHashOf(token) } });
        return { token, workflowId: workflow.id };
      }
      case 'approval':
      case 'victimApproval':
        return buildApprovalPiece((await this.piece(name === 'approval' ? 'member' : 'victim')) as unknown as TestMember);
      case 'llmConnection': {
        // An instance AI connection (the administrators'), with a key and no base URL.
        const admin = (await this.piece('admin')) as unknown as TestMember;
        const answer = await this.fixtureCall('POST', '/api/v1/admin/llm/connections', admin.cookie, { provider: 'ai_vendor_a', label: `Fuzz ${this.unique('text')}`, apiKey: 'sk-fuzz-fixture-key' });
        return { id: (answer as { id: string }).id };
      }
      case 'assistantConversation':
      case 'victimAssistantConversation': {
        const owner = (await this.piece(name === 'assistantConversation' ? 'member' : 'victim')) as unknown as TestMember;
        const row = await db().assistantConversation.create({ data: { memberId: owner.id, title: `Fuzz ${this.unique('text')}` } });
        return { id: row.id };
      }
      case 'supportThread':
      case 'victimSupportThread': {
        // A support conversation of the member (or of another member, for the cross-owner cases), with its first message.
        const owner = (await this.piece(name === 'supportThread' ? 'member' : 'victim')) as unknown as TestMember;
        const row = await db().supportThread.create({
          data: {
            kind: 'conversation',
            subject: `Fuzz ${this.unique('text')}`,
            status: 'open',
            authorMemberId: owner.id,
            authorName: 'Fuzz',
            messageCount: 1,
            messages: { create: { direction: 'member', opensThread: true, authorName: 'Fuzz', authorMemberId: owner.id, body: 'Hello' } },
          },
        });
        return { id: row.id };
      }
      case 'invitation': {
        const admin = (await this.piece('admin')) as unknown as TestMember;
        const answer = await this.fixtureCall('POST', '/api/v1/admin/members/invitations', admin.cookie, { email: this.unique('email'), role: 'member' });
        const { invitation, token } = answer as { invitation: { id: string }; token: string };
        return { id: invitation.id, token };
      }
      default:
        throw new Error(`fuzz world: unknown piece ${name}`);
    }
  }

  private async buildTable(): Promise<Piece> {
    const admin = (await this.piece('admin')) as unknown as TestMember;
    const created = (await this.fixtureCall('POST', '/api/v1/tables', admin.cookie, {
      name: `Fuzz ${this.unique('text')}`,
      columns: fixtureColumns.map((column) => ({ ...column })),
    })) as { table: { id: string; slug: string } };
    const { id, slug } = created.table;
    this.createdTables.add(id);
    const operations = ['alpha', 'beta', 'gamma'].map((name, index) => ({
      op: 'insert',
      cells: { name, count: index + 1, active: index % 2 === 0, day: '2024-02-29', at: '2024-02-29T12:00:00Z', kind: 'a', mail: `${name}@example.test`, note: `note ${name}` },
    }));
    const batch = (await this.fixtureCall('POST', `/api/v1/tables/${id}/rows/batch`, admin.cookie, { operations })) as { results: { id: string }[] };
    const rowIds = batch.results.map((result) => result.id);
    if (rowIds.length < 2 || !rowIds[0] || !rowIds[1]) throw new Error(`fuzz world: unexpected batch answer ${JSON.stringify(batch).slice(0, 300)}`);
    return { id, slug, rowId: rowIds[0], otherRowId: rowIds[1] };
  }

  private async fixtureCall(method: string, path: string, cookie: string, body?: unknown): Promise<unknown> {
    const headers = new Headers({ cookie, [clientIpHeader]: '127.0.0.1' });
    if (body !== undefined) headers.set('content-type', 'application/json');
    const response = await this.dispatch(new Request(`http://localhost${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
    const text = await response.text();
    if (response.status >= 300) throw new Error(`fuzz world: ${method} ${path} answered ${response.status} ${text.slice(0, 300)}`);
    return JSON.parse(text);
  }
}

const dependsOn: Record<string, string> = {
  memberKey: 'member',
  victimKey: 'victim',
  mailbox: 'member',
  victimMailbox: 'victim',
  connection: 'member',
  victimConnection: 'victim',
  notification: 'member',
  victimNotification: 'victim',
  mail: 'member',
  outbound: 'member',
  execution: 'member',
  victimExecution: 'victim',
  incident: 'member',
  victimIncident: 'victim',
  workflow: 'member',
  victimWorkflow: 'victim',
  evalRun: 'member',
  victimEvalRun: 'victim',
  exclusion: 'member',
  victimExclusion: 'victim',
  signature: 'member',
  victimSignature: 'victim',
  webhook: 'member',
  approval: 'member',
  victimApproval: 'victim',
  review: 'member',
  victimReview: 'victim',
  assistantConversation: 'member',
  victimAssistantConversation: 'victim',
  supportThread: 'member',
  victimSupportThread: 'victim',
};

/** A pending approval of a run waiting at its step, with its email link token (the token is stored only as its hash). */
async function buildApprovalPiece(owner: TestMember): Promise<{ id: string; token: string }> {
  const { workflow, version } = await createWorkflow(owner, { name: 'Fuzz approvals' });
  const execution = await createExecution(owner, { workflowId: workflow.id, workflowVersionId: version!.id, status: 'waiting' });
  await createStep(execution.id, { nodeId: 'ask', nodeType: 'approval.request@1', status: 'waiting', data: null, output: null });
  const token = newLinkToken();
  const row = await db().approval.create({
    data: {
      memberId: owner.id,
      executionId: execution.id,
      workflowId: workflow.id,
      workflowName: workflow.name,
      nodeId: 'ask',
      title: 'Fuzz approval',
      linkTokenHash: hashLinkToken(token),
      expiresAt: new Date(Date.now() + 86_400_000),
    },
  });
  return { id: row.id, token };
}

/** A failed live run (a succeeded and a failed step) of a fresh published workflow, with a waiting run beside it to cancel. */
async function buildExecutionPiece(owner: TestMember): Promise<{ id: string; workflowId: string; waitingId: string }> {
  const { workflow, version } = await createWorkflow(owner, { name: 'Fuzz workflow' });
  const execution = await createExecution(owner, { workflowId: workflow.id, workflowVersionId: version!.id, status: 'failed' });
  await createStep(execution.id, { nodeId: 'start', nodeType: 'trigger.webhook@1' });
  const waiting = await createExecution(owner, { workflowId: workflow.id, workflowVersionId: version!.id, status: 'waiting' });
  return { id: execution.id, workflowId: workflow.id, waitingId: waiting.id };
}

/** A running evaluation of a fresh workflow over three items of trigger data (one done), so its cases page and it can be cancelled. */
async function buildEvalRunPiece(owner: TestMember): Promise<{ id: string }> {
  const { workflow, version } = await createWorkflow(owner, { name: 'Fuzz evaluation' });
  const run = await db().evalRun.create({
    data: { memberId: owner.id, workflowId: workflow.id, versionId: version!.id, baseline: 'none', source: { kind: 'trigger_data', count: 3 }, status: 'running', total: 3, done: 1, triggered: 1, startedAt: new Date() },
  });
  await db().evalCase.createMany({
    data: [0, 1, 2].map((index) => ({ evalRunId: run.id, index, triggerData: { n: index }, ...(index === 0 ? { status: 'done', triggered: true, path: ['start'], changed: true } : {}) })),
  });
  return { id: run.id };
}

function splitName(name: string): [string, string] {
  const dot = name.lastIndexOf('.');
  return [name.slice(0, dot), name.slice(dot + 1)];
}
