/** The workflows domain's input and output schemas (spec: Workflow graph; Endpoints → Workflows). */
import { z } from 'zod';
import { isoDateTime } from '../../core/http/schemas';
import { graphInput } from '../../engine/contract/graph';
import { oneRunAtATimeInput, serialKeyKinds } from '../../engine/contract/one-run-at-a-time';

/** Any text: an id that names no workflow of the caller (malformed included) is one 404. */
export const workflowIdInput = z.object({ id: z.string().min(1).max(200) });

/** How deep free JSON (parameters, pins, trigger data) may nest: deeper is a 400, never a stored value. */
export const maxJsonDepth = 64;

/**
 * The first place free JSON breaks a rule: a `__proto__` key (zod's record would drop it silently,
 * so it is refused instead: a client never gets a success for data that was left out), or nesting
 * deeper than `maxJsonDepth`. Iterative, one visit per value: a body nested 10,000 deep neither
 * overflows the stack nor reaches the database. The walk is bounded by the request body bound.
 */
export function freeJsonProblem(root: unknown): { path: (string | number)[]; message: string } | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: root, path: [] }];
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (path.length > maxJsonDepth) return { path: path.slice(0, maxJsonDepth + 1), message: `Nested more than ${maxJsonDepth} levels deep.` };
    if (Array.isArray(value)) {
      value.forEach((item, index) => stack.push({ value: item, path: [...path, index] }));
      continue;
    }
    if (Object.hasOwn(value, '__proto__')) return { path: [...path, '__proto__'], message: '`__proto__` cannot be used as a key.' };
    for (const [key, inner] of Object.entries(value)) stack.push({ value: inner, path: [...path, key] });
  }
  return null;
}

/** `schema`, after refusing what freeJsonProblem finds. */
function boundedJson<T extends z.ZodType>(schema: T) {
  return z.preprocess((input, ctx) => {
    const problem = freeJsonProblem(input);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem.message, path: problem.path, input });
      return z.NEVER;
    }
    return input;
  }, schema);
}

export const storedGraphInput = boundedJson(graphInput);

export const workflowStatus = z.enum(['draft', 'published', 'paused', 'archived']);

export const workflowSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string(),
    status: workflowStatus.describe('`draft`: no published version; `published`; `paused` (published, starts nothing new); `archived` (read-only).'),
    publishedVersion: z.object({ id: z.uuid(), number: z.number().int(), publishedAt: isoDateTime }).nullable(),
    triggerType: z.string().nullable().describe('Of the published version, else of the draft: `mail`, `webhook`, `workflow_failure`, `schedule` or null.'),
    draftRevision: z.number().int(),
    errorWorkflowId: z.uuid().nullable(),
    maxConcurrency: z.number().int().nullable().describe('Null: the instance default.'),
    executionTimeoutMs: z.number().int().nullable().describe('Null: the instance default (one hour).'),
    sendWithoutReview: z.boolean().describe('Whether the workflow’s mail.send steps send without review (default false: they wait in the review queue).'),
    oneRunAtATime: z
      .object({ by: z.enum(serialKeyKinds), expression: z.string().nullable(), coalesceSeconds: z.number().int() })
      .nullable()
      .describe('Runs that share a key (`by`: the conversation, the sender, or the value of `expression`) run one at a time, in arrival order; `coalesceSeconds` > 0: mail of one key arriving within that window joins one run. Null: runs are independent.'),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'Workflow' });

const graphOutput = z.looseObject({ id: z.string(), workflowId: z.string(), nodes: z.array(z.unknown()), connections: z.array(z.unknown()) });

const limitPair = z.object({ effective: z.number().int(), ceiling: z.number().int() });

export const executionLimitsSchema = z
  .object({
    maxConcurrency: limitPair.extend({ instanceTotal: z.number().int() }),
    executionTimeoutMs: limitPair.extend({ minimum: z.number().int() }),
    waitMs: limitPair,
  })
  .meta({ id: 'ExecutionLimits' });

/** An issue of a saved draft (issue 19 §6: an incomplete node does not block saving, only publishing and test runs). */
export const draftIssueSchema = z
  .object({
    path: z.string().describe('Where, as the graph is written: `nodes[2].params.conditions`, `connections[0].output`.'),
    message: z.string().describe('A sentence naming the field in words: “Add at least one item to “Conditions”.”'),
    rule: z
      .looseObject({ kind: z.string() })
      .optional()
      .describe(
        'For a parameter: the rule broken, so a client can word it in its language: `required`, `wrong_type` (`expected`), `too_few`/`too_short`/`too_low` (`minimum`), `too_many`/`too_long`/`too_high` (`maximum`), `not_an_option` (`options`), `bad_format` (`format`), `unknown_fields` (`keys`), `no_accepted_form`, `expression`, `other`.',
      ),
  })
  .meta({ id: 'DraftIssue' });

const draftIssues = z
  .array(draftIssueSchema)
  .describe('What publishing, a test run or an evaluation would refuse in this draft (400 `workflow.invalid_graph`); empty when it is complete.');

export const workflowDetailSchema = workflowSchema
  .extend({
    graph: graphOutput,
    draftIssues,
    executionLimits: executionLimitsSchema,
    testMessageIds: z.array(z.uuid()),
    webhook: z.object({ configured: z.boolean(), requireSignature: z.boolean() }),
  })
  .meta({ id: 'WorkflowDetail' });

export const workflowOutput = z.object({ workflow: workflowSchema });
export const createWorkflowOutput = workflowOutput.extend({ issues: draftIssues });
export const workflowDetailOutput = z.object({ workflow: workflowDetailSchema });
export const workflowListOutput = z.object({ workflows: z.array(workflowSchema) });

export const createWorkflowInput = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2_000).optional(),
  graph: storedGraphInput.optional(),
});

export const patchWorkflowInput = workflowIdInput.extend({
  name: z.string().trim().min(1).max(200).optional(),
  description: z.string().max(2_000).optional(),
  settings: z
    .object({
      errorWorkflowId: z.string().min(1).max(200).nullable().optional().describe('Null clears it.'),
      maxConcurrency: z.number().int().nullable().optional().describe('1 to the instance ceiling; null: the instance default.'),
      executionTimeoutMs: z.number().int().nullable().optional().describe('60000 (one minute) to 86400000 (24 hours); null: the default.'),
      sendWithoutReview: z.boolean().optional().describe('true: the workflow’s mail.send steps send without review; false (default): they wait in the review queue.'),
      oneRunAtATime: oneRunAtATimeInput.nullable().optional().describe('Runs one at a time per key, optionally coalescing bursts of mail; null: runs are independent.'),
    })
    .optional(),
});

export const putGraphInput = workflowIdInput.extend({
  graph: storedGraphInput,
  draftRevision: z.number().int().min(1).optional().describe('The revision the client loaded; another one is 409 `workflow.revision_conflict`.'),
});

const savedDraft = z.object({ graph: graphOutput, draftRevision: z.number().int() });
export const putGraphOutput = savedDraft.extend({ issues: draftIssues });

export const publishInput = workflowIdInput.extend({ note: z.string().max(500).optional() });

export const versionSchema = z
  .object({
    id: z.uuid(),
    number: z.number().int(),
    note: z.string(),
    createdAt: isoDateTime,
    createdBy: z.uuid().nullable(),
    triggerType: z.string().nullable(),
    published: z.boolean().describe('Whether this is the version triggers start.'),
  })
  .meta({ id: 'WorkflowVersion' });

export const versionOutput = z.object({ version: versionSchema });
export const versionListOutput = z.object({ versions: z.array(versionSchema) });
export const versionDetailOutput = z.object({ version: versionSchema.extend({ graph: graphOutput }) });
export const versionRefInput = workflowIdInput.extend({ versionId: z.string().min(1).max(200) });

/** Roll back: that version's graph becomes the draft (ours, in the spec's style). */
export const restoreVersionInput = versionRefInput.extend({
  draftRevision: z.number().int().min(1).optional().describe('The revision the client loaded; another one is 409 `workflow.revision_conflict`.'),
});
/** A restored version was valid when made and is checked again: it has no issues to answer. */
export const restoreVersionOutput = savedDraft.extend({
  restoredFrom: z.object({ id: z.uuid(), number: z.number().int() }).describe('The version whose graph the draft now is.'),
});

export const testMessagesInput = workflowIdInput.extend({ messageIds: z.array(z.uuid()).max(20) });
export const testMessagesOutput = z.object({ testMessageIds: z.array(z.uuid()) });

export const testRunInput = workflowIdInput.extend({
  messageId: z.uuid().optional().describe('A pinned test message or any message of your mailboxes.'),
  triggerData: boundedJson(z.record(z.string(), z.unknown())).optional().describe('At most 256 KB serialised.'),
  upToNodeId: z.string().min(1).max(64).optional().describe('Run until this node.'),
  callModels: z.boolean().default(false).describe('AI nodes call their model for real (cost recorded); default false: they answer their pin or a simulated output.'),
});
export const testRunOutput = z.object({ executionId: z.uuid() });

export const webhookInput = workflowIdInput.extend({
  rotate: z.boolean().optional().describe('A new token (and a new secret when signatures are required); default false.'),
  requireSignature: z.boolean().optional().describe('Require an HMAC-SHA256 signature; unchanged when absent.'),
});
export const webhookOutput = z.object({
  url: z.url(),
  token: z.string(),
  requireSignature: z.boolean(),
  secret: z.string().optional().describe('The signing secret, only when created or rotated by this call.'),
});
