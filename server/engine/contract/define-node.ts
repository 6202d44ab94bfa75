/**
 * The shape of a node type: one module per type and version (`<family>/<name>.node.ts`) exporting
 * `defineNode({...})`. The executor receives its resolved parameters, its input and capabilities as
 * arguments; it never retries, sleeps or swallows errors itself: it returns a result or throws
 * (`fail.transient` / `fail.permanent` from ./failures, or `RateLimited`). Retry levels,
 * backoff, timeouts, `onError`, uncertainty, simulation and replay live once in ../run.
 *
 * Terminology: an execution runs a graph; a step is one node's run in it; an attempt is one try of a
 * step; an effect is what a step did outside the run (recorded under a key stable across attempts).
 */
import type { z } from 'zod';
import type { Scope } from '../../core/auth/scopes';
import type { Capabilities, EffectRecord, KeyedEffect } from './capabilities';

export type Localized = { en: string; fr: string };

export type NodeCategory = 'trigger' | 'logic' | 'data' | 'flow' | 'http' | 'mail' | 'tables' | 'notify' | 'signal' | 'ai' | 'approval' | 'contacts';

/**
 * `none`: no effect outside the run (retried freely, even after an interruption);
 * `keyed`: effects recorded under a stable key (mail, tables, signals): a retry recognises one done;
 * `external`: a third-party call (HTTP, notification): cut off mid-call → `step_effect_uncertain`.
 */
export type EffectKind = 'none' | 'keyed' | 'external';

export type TriggerKind = 'mail' | 'webhook' | 'workflow_failure' | 'schedule';

/** What the runs a step starts are (NodeDefinition.childKind). */
export type ChildKind = 'sub_workflow' | 'loop_iteration';

/** Step fields a node's result fills (NodeDefinition.stepFields). */
export type StepField = 'loop';

/** What a graph using a node type needs of the instance (NodeDefinition.requires). */
export type Requirement = 'mail' | 'http';

export interface RetryDefaults {
  maxAttempts: number;
  delayMs: number;
  /** Per attempt. */
  timeoutMs: number;
}

export interface ExecutionFacts {
  id: string;
  memberId: string;
  workflowId: string;
  workflowVersionId: string;
  simulated: boolean;
  mailboxId: string | null;
  /** The triggering message, if any. */
  messageId: string | null;
  triggerType: string | null;
}

/** Asks the engine to start runs of another workflow on the step's behalf (sub-workflow, loop). */
export interface ChildRuns {
  /** Starts the children not started yet (idempotent by `index`); the step then suspends until they end. */
  start(children: { index: number; workflowId: string; triggerData: Record<string, unknown> }[]): Promise<void>;
  /** The children started so far, by index, with their outcome once finished. */
  list(): Promise<{ index: number; executionId: string; status: string; output: unknown; error: { code: string; message: string } | null }[]>;
}

export interface NodeContext<Params> {
  params: Params;
  /** The data of the upstream steps that lead here, by input name (`main` unless the connection names one). */
  input: Record<string, unknown>;
  /** Every finished upstream step's data, by node id (what expressions see as `$node`). */
  nodes: Record<string, unknown>;
  trigger: Record<string, unknown> | null;
  execution: ExecutionFacts;
  node: { id: string; name: string };
  /** 1 on the first attempt. */
  attempt: number;
  /** Aborts when the attempt times out or the run is cancelled: pass it to every call. */
  signal: AbortSignal;
  /** State kept across attempts and resumes of this step (null at first). */
  state: unknown;
  /** Why the step runs again after a suspension, or null on a first run. */
  resume: { reason: 'timer' | 'children' | 'decision'; payload?: unknown } | null;
  effect: KeyedEffect;
  capabilities: Capabilities;
  children: ChildRuns;
  now: () => Date;
}

export type NodeResult =
  /** Done: the data (kept on the step, bounded by the engine) and the output port taken (default `main`). */
  | { kind?: 'done'; output?: string; data: unknown; warnings?: string[]; effects?: EffectRecord[] }
  /**
   * Suspend the step. `waiting`: the execution becomes `waiting` (no slot, no working time) until
   * `until` (null: until something resumes it: a decision). `children`: the execution stays running
   * and the step resumes when every child started through `children` has ended.
   */
  | {
      kind: 'suspend';
      mode: 'waiting' | 'children';
      until: Date | null;
      state?: unknown;
      /**
       * `waiting` only: the wait also ends when a person other than the mailbox replies in the thread of
       * this message of the member's mirror (flow.wait_for_reply). The engine registers it with the
       * suspension, in one transaction; the mail dispatcher resumes the step in the transaction that
       * journals the reply (`resume: {reason: 'decision', payload: {kind: 'reply', reply}}`, `reply` shaped
       * as a mail trigger's message); a reply already mirrored resumes it at once. Deadline: `until`.
       */
      watchReplies?: { messageId: string };
    };

export interface NodeDefinition<Schema extends z.ZodType = z.ZodType> {
  type: string;
  version: number;
  category: NodeCategory;
  label: Localized;
  description: Localized;
  params: Schema;
  /** Output ports. A function when they depend on the parameters (a switch's cases). */
  outputs: readonly string[] | ((params: z.output<Schema>) => string[]);
  /**
   * The data the node puts on its outputs, when it is known before any run (a trigger's data: a mail
   * trigger's message summary). The builder completes and checks expression paths (`trigger.from.email`)
   * against it without a test run; GET /api/v1/node-types serves it as JSON Schema (`outputSchema`).
   */
  output?: z.ZodType;
  /** Named inputs (default one, `main`); a merge has several. */
  inputs?: readonly string[];
  effect: EffectKind;
  /** Node-type retry defaults (the built-in ones apply when absent). */
  retry?: Partial<RetryDefaults>;
  /** Set on trigger nodes: what starts the workflow. A graph has exactly one trigger. */
  trigger?: TriggerKind;
  /** Parameter names whose values are mailbox ids (removal-impact reads them from published graphs). */
  mailboxParams?: readonly string[];
  /** Whether a graph may route back into this node (a loop's back edge). Default false. */
  allowsCycles?: boolean;
  /**
   * The API-key scopes using this type implies: what its runs read or change on the member's behalf
   * (a trigger.mail run reads every new message: `messages:read`). A graph written, published or run
   * through a key needs every scope its nodes imply (../graph/required-scopes.ts); sessions are not
   * narrowed. `[]`: nothing beyond `workflows:write`. Every type of the registry declares it
   * (registry.test.ts); only test fixtures may leave it out.
   */
  scopes?: readonly Scope[];
  /**
   * Scopes a parameter implies when it is in use (set, not empty, not false; absent counts as its
   * default): `credentialId` → `connections:read`. An expression counts as in use (its value is
   * known only at run time).
   */
  parameterScopes?: Readonly<Record<string, readonly Scope[]>>;
  /** Parameter names whose values are workflow ids the node runs (a called workflow's scopes count too). */
  workflowParams?: readonly string[];
  /**
   * What the runs it starts through `children` are: `loop_iteration` (a loop's items: no slot, left out
   * of the run counts, never an error workflow's trigger) or `sub_workflow` (a called workflow). Read by
   * the engine when it hands the step its `children` (run/run-step.ts). Default `sub_workflow`.
   */
  childKind?: ChildKind;
  /**
   * The step row is written when its attempt starts, even on a first attempt of a node with no effect
   * outside the run (which the engine otherwise writes once, when it ends: run/step-rows.ts, StepRef).
   * Set on nodes that suspend or hand their step to others (children, a wait, an approval): what they
   * start must find the step. Default false.
   */
  persistsStepFirst?: boolean;
  /**
   * Step fields the engine fills from what the node returns: `loop`, the loop object of the step (from
   * the result's `data.loop`, or a failure's `details.loop`), which the spec's step carries. Default none.
   */
  stepFields?: readonly StepField[];
  /**
   * What a graph using the type needs of the instance to run: `mail` (a mailbox of any provider),
   * `http` (outbound HTTP). Templates derive their `requiresProviders` from it (domains/templates/derive.ts).
   * Every type of the registry declares it (registry.test.ts); only test fixtures may leave it out.
   */
  requires?: readonly Requirement[];
  execute(context: NodeContext<z.output<Schema>>): Promise<NodeResult>;
}

export function defineNode<Schema extends z.ZodType>(definition: NodeDefinition<Schema>): NodeDefinition<Schema> {
  return definition;
}

export function outputsOf(definition: NodeDefinition, params: unknown): string[] {
  return typeof definition.outputs === 'function' ? definition.outputs(params as never) : [...definition.outputs];
}

/** The kind of the runs a step of this type starts (NodeDefinition.childKind). */
export function childKindOf(definition: Pick<NodeDefinition, 'childKind'>): ChildKind {
  return definition.childKind ?? 'sub_workflow';
}

/** Whether the type's steps carry `field` (NodeDefinition.stepFields). */
export function writesStepField(definition: Pick<NodeDefinition, 'stepFields'>, field: StepField): boolean {
  return definition.stepFields?.includes(field) ?? false;
}
