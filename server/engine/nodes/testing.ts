/**
 * A node context for unit tests: fake capabilities that record their calls, an effect runner that
 * performs (or simulates) at once, and children that the test controls. Not a node module.
 */
import { vi } from 'vitest';
import { simulatedOutcome } from '../contract/ai-outcomes';
import type { Capabilities, ContactCard, OutboundRequest, SendCapability } from '../contract/capabilities';
import type { ChildRuns, NodeContext, NodeDefinition, NodeResult } from '../contract/define-node';

type ChildRow = Awaited<ReturnType<ChildRuns['list']>>[number];

/** The address book entry of an address nobody has a card for (what the fake `contacts.lookup` answers). */
export function unknownContact(address: string): ContactCard {
  return {
    address: address.trim().toLowerCase(),
    known: false,
    displayName: null,
    status: null,
    language: null,
    formality: null,
    tone: null,
    notes: [],
    sources: { displayName: null, status: null, language: null, formality: null, tone: null, notes: [] },
  };
}

export function fakeCapabilities(overrides: Partial<{ [K in keyof Capabilities]: Partial<Capabilities[K]> }> = {}): Capabilities {
  return {
    mail: {
      findMessage: vi.fn(async () => null),
      operate: vi.fn(async () => ({ operationId: 'op-1', duplicate: false })),
      check: vi.fn(async () => undefined),
      threadContext: vi.fn(async () => []),
      classify: vi.fn(async () => true),
      attachmentTexts: vi.fn(async () => ({ read: [], left: 0 })),
      thread: vi.fn(async () => null),
      ...overrides.mail,
    },
    contacts: { lookup: vi.fn(async (input: { address: string }) => unknownContact(input.address)), ...overrides.contacts },
    send: {
      prepare: vi.fn(async (request: OutboundRequest) => ({
        mailboxId: request.mailboxId ?? 'mb-1',
        mailboxAddress: 'me@example.test',
        to: request.to ?? ['alice@example.test'],
        cc: request.cc ?? [],
        bcc: request.bcc,
        subject: request.subject ?? 'Re: Hello',
        bodyText: request.bodyText,
        bodyHtml: request.bodyHtml,
        attachments: request.attachments.map((attachment) => ({ messageId: attachment.messageId, position: attachment.position ?? 1 })),
        related: request.answer ? { messageId: request.answer.messageId, relation: request.answer.mode } : null,
      })),
      create: vi.fn(async (input: Parameters<SendCapability['create']>[0]) => ({
        itemId: 'item-1',
        reviewStatus: 'pending',
        sendStatus: 'pending',
        messageIdHeader: '<item-1@example.test>',
        to: input.prepared.to,
        subject: input.prepared.subject,
        duplicate: false,
      })),
      ...overrides.send,
    },
    tables: {
      lookup: vi.fn(async () => null),
      write: vi.fn(async (input) => ({ row: { id: 'row-1', cells: input.cells } as never, replayed: false, ...(input.op === 'upsert' ? { created: true } : {}) })),
      check: vi.fn(async (input) => ({ row: null, replayed: false as const, simulated: true as const, cells: input.cells, ...(input.op === 'upsert' ? { created: true } : {}) })),
      ...overrides.tables,
    },
    http: {
      request: vi.fn(async (input) => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}', url: input.url })),
      ...overrides.http,
    },
    notify: { owner: vi.fn(async () => ({ id: 'n-1' })), ...overrides.notify },
    signal: { mark: vi.fn(async () => ({ created: true })), ...overrides.signal },
    approvals: {
      request: vi.fn(async (input) => ({ approvalId: 'ap-1', status: 'pending' as const, decidedBy: null, reason: null, expiresAt: input.expiresAt.toISOString() })),
      expire: vi.fn(async () => ({ approvalId: 'ap-1', status: 'expired' as const, decidedBy: null, reason: 'expired', expiresAt: '2026-03-01T10:00:00.000Z' })),
      ...overrides.approvals,
    },
    ai: {
      call: vi.fn(async (input) => ({ ...simulatedOutcome(input), simulated: false, provider: 'ai_vendor_a', model: 'fake-model', costUsd: 0.001 })),
      ...overrides.ai,
    },
  };
}

export interface FakeContextOptions<P> {
  params: P;
  input?: Record<string, unknown>;
  nodes?: Record<string, unknown>;
  trigger?: Record<string, unknown> | null;
  simulated?: boolean;
  messageId?: string | null;
  state?: unknown;
  resume?: NodeContext<P>['resume'];
  capabilities?: Capabilities;
  children?: ChildRow[];
  now?: Date;
}

export function fakeContext<P>(options: FakeContextOptions<P>) {
  const children = [...(options.children ?? [])];
  const started: { index: number; workflowId: string; triggerData: Record<string, unknown> }[] = [];
  const effects: { key: string; kind: string }[] = [];
  const context: NodeContext<P> = {
    params: options.params,
    input: options.input ?? { main: {} },
    nodes: options.nodes ?? {},
    trigger: options.trigger ?? null,
    execution: {
      id: 'exec-1',
      memberId: 'member-1',
      workflowId: 'wf-1',
      workflowVersionId: 'v-1',
      simulated: options.simulated ?? false,
      mailboxId: options.messageId ? 'mb-1' : null,
      messageId: options.messageId ?? null,
      triggerType: 'trigger.webhook',
    },
    node: { id: 'n1', name: 'Node' },
    attempt: 1,
    signal: new AbortController().signal,
    state: options.state ?? null,
    resume: options.resume ?? null,
    effect: async (spec, perform, simulated) => {
      effects.push({ key: spec.key, kind: spec.kind });
      return options.simulated ? simulated() : perform();
    },
    capabilities: options.capabilities ?? fakeCapabilities(),
    children: {
      start: async (list) => {
        for (const child of list) {
          if (started.some((seen) => seen.index === child.index)) continue;
          started.push(child);
        }
      },
      list: async () => children,
    },
    now: () => options.now ?? new Date('2026-03-01T10:00:00Z'),
  };
  return { context, started, effects, children };
}

/** Runs the node as `runNode` does, and answers the effects it asked the engine to record. */
export async function runNodeWithEffects(definition: NodeDefinition, options: FakeContextOptions<unknown>) {
  const params = definition.params.parse(options.params);
  const { context, effects } = fakeContext({ ...options, params });
  const result = await definition.execute(context as never);
  return { result, effects };
}

/** Parses params through the node's schema (as the engine does) and runs it. */
export async function runNode(definition: NodeDefinition, options: FakeContextOptions<unknown>): Promise<NodeResult> {
  const params = definition.params.parse(options.params);
  return definition.execute(fakeContext({ ...options, params }).context as never);
}
