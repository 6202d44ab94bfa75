/**
 * Fixture node types for engine tests (`test.*`, registered only under vitest): each call does what
 * its `script` says for that call number (the last entry repeats), so one graph shows one rule.
 * `ok` succeeds; `transient`/`permanent` throw that failure family; `unknown` throws a plain Error;
 * `rate_limit` asks to be postponed 1.2 s; `hang` never ends unless aborted; `slow` takes 300 ms.
 */
import { z } from 'zod';
import { defineNode, type NodeDefinition } from '../../../server/engine/contract/define-node';
import { registerFixtureNodeTypes } from '../../../server/engine/nodes/registry';
import { fail, RateLimited } from '../../../server/engine/contract/failures';
import { db } from '../../../server/core/db';

const step = z.enum(['ok', 'transient', 'permanent', 'unknown', 'rate_limit', 'hang', 'slow', 'wait', 'branch_true', 'branch_false']);
const params = z.strictObject({ script: z.array(step).default(['ok']), effectKey: z.string().optional(), label: z.string().optional() });

/** Calls per key of `test.keyed` effects really performed, for at-most-once assertions. */
export const performedEffects = new Map<string, number>();
/** Attempts seen per "<executionId>:<nodeId>". */
export const attemptsSeen = new Map<string, number>();

/** A fixture's definition: version 1, its type as its label, the fixtures' common description. */
function fixtureNode<Schema extends z.ZodType>(definition: Omit<NodeDefinition<Schema>, 'version' | 'label' | 'description'>): NodeDefinition<Schema> {
  return defineNode({
    version: 1,
    label: { en: definition.type, fr: definition.type },
    description: { en: 'Engine test fixture.', fr: 'Appareil de test du moteur.' },
    ...definition,
  });
}

function scripted(type: string, effect: 'none' | 'keyed' | 'external', outputs: string[]): NodeDefinition {
  return fixtureNode({
    type,
    category: 'data',
    params,
    outputs,
    effect,
    async execute({ params: { script, effectKey }, attempt, signal, execution, node, effect: keyed, input, resume }) {
      const key = `${execution.id}:${node.id}`;
      const calls = (attemptsSeen.get(key) ?? 0) + 1;
      attemptsSeen.set(key, calls);
      // By call, not attempt: a postponed call (rate limit) gives its attempt back.
      const action = script[Math.min(calls, script.length) - 1] ?? 'ok';
      if (effectKey) {
        await keyed({ key: effectKey, kind: 'test', description: `test effect ${effectKey}` }, async () => {
          performedEffects.set(`${execution.id}:${effectKey}`, (performedEffects.get(`${execution.id}:${effectKey}`) ?? 0) + 1);
          return { done: true };
        }, () => ({ done: false }));
      }
      switch (action) {
        case 'transient':
          throw fail.transient('http_error', { message: `attempt ${attempt} failed for a while` });
        case 'permanent':
          throw fail.permanent('invalid_parameter', { message: `attempt ${attempt} cannot succeed` });
        case 'unknown':
          throw new Error('something odd');
        case 'rate_limit':
          throw new RateLimited(new Date(Date.now() + 1_200));
        case 'hang':
          await new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
          break;
        case 'slow':
          await new Promise((resolve) => setTimeout(resolve, 300));
          break;
        case 'wait':
          if (!resume) return { kind: 'suspend', mode: 'waiting', until: new Date(Date.now() + 1_000) };
          break;
        case 'branch_true':
          return { output: 'true', data: { attempt, branch: true } };
        case 'branch_false':
          return { output: 'false', data: { attempt, branch: false } };
        case 'ok':
          break;
      }
      return { data: { attempt, input: input.main ?? null } };
    },
  });
}

export const fixtureNodes = [
  scripted('test.step', 'none', ['main']),
  scripted('test.keyed', 'keyed', ['main']),
  scripted('test.external', 'external', ['main']),
  scripted('test.branch', 'none', ['true', 'false']),
];

registerFixtureNodeTypes(fixtureNodes);

/** A trigger fixture for error workflows (the catalogue's workflow-failure trigger lands separately). */
export const failureTriggerFixture = fixtureNode({
  type: 'test.on_failure',
  category: 'trigger',
  trigger: 'workflow_failure',
  params: z.strictObject({}),
  outputs: ['main'],
  effect: 'none',
  async execute({ trigger }) {
    return { data: trigger ?? {} };
  },
});

/** Starts `count` runs of `workflowId` and ends with their outputs (or fails when one failed). */
export const childrenFixture = fixtureNode({
  type: 'test.children',
  category: 'flow',
  persistsStepFirst: true,
  params: z.strictObject({ workflowId: z.string(), count: z.number().int().min(1).max(20) }),
  outputs: ['main'],
  effect: 'none',
  async execute({ params, children, resume }) {
    if (!resume) {
      await children.start(Array.from({ length: params.count }, (_, index) => ({ index, workflowId: params.workflowId, triggerData: { index } })));
      return { kind: 'suspend', mode: 'children', until: null };
    }
    const runs = await children.list();
    const failed = runs.find((run) => run.status !== 'succeeded');
    if (failed) throw fail.permanent('sub_workflow_failed', { details: { executionId: failed.executionId } });
    return { data: { outputs: runs.map((run) => run.output) } };
  },
});

registerFixtureNodeTypes([failureTriggerFixture, childrenFixture]);

/** Waits for a decision (as an approval does) and takes the port it names. */
export const decisionFixture = fixtureNode({
  type: 'test.decision',
  category: 'approval',
  persistsStepFirst: true,
  params: z.strictObject({}),
  outputs: ['approve', 'reject'],
  effect: 'none',
  async execute({ resume }) {
    if (resume?.reason !== 'decision') return { kind: 'suspend', mode: 'waiting', until: null };
    const decision = resume.payload as 'approve' | 'reject';
    return { output: decision, data: { decision } };
  },
});

/**
 * The same, but slow to suspend and written when its attempt starts (as the approval step, whose
 * approval row exists before the step suspends): a decision can arrive while it still runs.
 */
export const slowDecisionFixture = fixtureNode({
  type: 'test.slow_decision',
  category: 'approval',
  persistsStepFirst: true,
  params: z.strictObject({ pauseMs: z.number().int().min(0).max(10_000) }),
  outputs: ['approve', 'reject'],
  effect: 'keyed',
  async execute({ params, resume }) {
    if (resume?.reason === 'decision') return { output: resume.payload as 'approve' | 'reject', data: { decision: resume.payload } };
    await new Promise((resolve) => setTimeout(resolve, params.pauseMs));
    return { kind: 'suspend', mode: 'waiting', until: new Date(Date.now() + 3_600_000) };
  },
});

registerFixtureNodeTypes([decisionFixture, slowDecisionFixture]);

/**
 * A node with no outside effect that still reports one in its result (as a node reporting what a capability did
 * inside the instance would): its step is held with its advance (step-journal.ts) and written only with the run's
 * end, so that end must count it in `acted` (server/engine/run/finish.ts).
 */
export const reportedEffectFixture = fixtureNode({
  type: 'test.reported_effect',
  category: 'data',
  params: z.strictObject({}),
  outputs: ['main'],
  effect: 'none',
  async execute() {
    return { data: { reported: true }, effects: [{ kind: 'test', description: 'reported by the node' }] };
  },
});

registerFixtureNodeTypes([reportedEffectFixture]);

/**
 * A node with no outside effect that answers the run's step rows as they are saved when it runs (`[nodeId, status]`
 * in `seq` order): what a runner taking the run over at that moment would find.
 */
export const savedStepsProbeFixture = fixtureNode({
  type: 'test.saved_steps',
  category: 'data',
  params: z.strictObject({}),
  outputs: ['main'],
  effect: 'none',
  async execute({ execution }) {
    const rows = await db().executionStep.findMany({ where: { executionId: execution.id }, orderBy: { seq: 'asc' }, select: { nodeId: true, status: true } });
    return { data: { saved: rows.map((row) => [row.nodeId, row.status]) } };
  },
});

registerFixtureNodeTypes([savedStepsProbeFixture]);
