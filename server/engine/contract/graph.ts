/**
 * The workflow graph as the spec's "Workflow graph" section describes it: nodes, connections, sticky
 * notes and pins. This is the shape only, the contract between the domains that store graphs and the
 * engine that runs them (browser-safe: the builder imports it too); `../graph/validate-graph.ts` checks
 * what a shape cannot (node types and versions, dangling connections, duplicate ids, cycles, every
 * parameter bound).
 */
import { z } from 'zod';

export const retrySettings = z.strictObject({
  maxAttempts: z.number().int().min(1).max(10),
  delayMs: z.number().int().min(1_000).max(3_600_000),
});

export const position = z.strictObject({ x: z.number().finite(), y: z.number().finite() });

export const graphNode = z.strictObject({
  id: z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/, 'Letters, digits, "_" and "-" only.'),
  type: z.string().min(1).max(128),
  version: z.number().int().min(1),
  name: z.string().min(1).max(200),
  params: z.record(z.string(), z.unknown()).default({}),
  onError: z.enum(['fail', 'continue', 'errorPort']).default('fail'),
  retry: retrySettings.optional(),
  timeoutMs: z.number().int().min(5_000).max(1_800_000).optional(),
  position: position.default({ x: 0, y: 0 }),
  disabled: z.boolean().default(false),
  notes: z.string().max(2_000).optional(),
});

export const graphConnection = z.strictObject({
  from: z.string().min(1).max(64),
  output: z.string().min(1).max(64).default('main'),
  to: z.string().min(1).max(64),
  input: z.string().min(1).max(64).optional(),
  kind: z.enum(['data', 'service']).optional(),
});

export const stickyNoteColors = ['jaune', 'menthe', 'ciel', 'rose', 'lavande'] as const;

export const stickyNote = z.strictObject({
  id: z.string().min(1).max(64),
  text: z.string().max(4_000).default(''),
  position: position.default({ x: 0, y: 0 }),
  size: z
    .strictObject({ width: z.number().min(120).max(2_000), height: z.number().min(80).max(2_000) })
    .default({ width: 240, height: 160 }),
  color: z.enum(stickyNoteColors).default('jaune'),
});

export const pin = z.strictObject({
  output: z.unknown(),
  port: z.string().min(1).max(64).optional(),
  pinnedAt: z.string().min(1).max(64),
});

/** Bounds that keep one graph reasonable to store, validate and run. */
export const graphBounds = { nodes: 200, connections: 600, notes: 100, pins: 200 } as const;

/** The graph a client sends (PUT …/graph): `id`/`workflowId` are the server's and optional here. */
export const graphInput = z.strictObject({
  id: z.string().optional(),
  workflowId: z.string().optional(),
  nodes: z.array(graphNode).max(graphBounds.nodes).default([]),
  connections: z.array(graphConnection).max(graphBounds.connections).default([]),
  notes: z.array(stickyNote).max(graphBounds.notes).optional(),
  pins: z
    .record(z.string().min(1).max(64), pin)
    .refine((pins) => Object.keys(pins).length <= graphBounds.pins, { message: `At most ${graphBounds.pins} pins.` })
    .optional(),
});

export type GraphInput = z.input<typeof graphInput>;
export type GraphNode = z.output<typeof graphNode>;
export type GraphConnection = z.output<typeof graphConnection>;
export type WorkflowGraph = z.output<typeof graphInput> & { id: string; workflowId: string };

export const emptyGraph = (workflowId: string, id: string): WorkflowGraph => ({ id, workflowId, nodes: [], connections: [] });
