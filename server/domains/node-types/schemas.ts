import { z } from 'zod';

export const listNodeTypesInput = z.object({
  lang: z.enum(['en', 'fr']).optional().describe('The language of labels and descriptions (default en).'),
});

export type ListNodeTypesQuery = z.infer<typeof listNodeTypesInput>;

export const nodeTypeSchema = z
  .object({
    type: z.string().describe('The node type (`logic.if`); a graph names it with `version`.'),
    version: z.number().int().min(1),
    category: z.string().describe('`trigger`, `logic`, `data`, `flow`, `http`, `mail`, `tables`, `notify`, `signal`, …'),
    label: z.string(),
    description: z.string(),
    inputs: z.array(z.string()).describe('Named inputs (`main`, or `a` and `b` for a merge).'),
    outputs: z.array(z.string()).nullable().describe('Output ports, or null when they depend on the parameters (a switch’s cases, plus `fallback`).'),
    effect: z.enum(['none', 'keyed', 'external']).describe('`none`: no effect outside the run; `keyed`: effects recorded under a key stable across attempts; `external`: a third-party call.'),
    retry: z
      .object({ maxAttempts: z.number().int(), delayMs: z.number().int(), timeoutMs: z.number().int() })
      .describe('The effective retry defaults of the type (its own, else the built-in ones).'),
    trigger: z.enum(['mail', 'webhook', 'workflow_failure', 'schedule']).nullable().describe('For a trigger node: what starts the workflow; else null.'),
    mailboxParams: z.array(z.string()).describe('Parameters whose values are mailbox ids.'),
    scopes: z
      .array(z.string())
      .describe(
        'The API-key scopes using this type implies (what its runs read or change for you): a graph saved, published, test-run, restored, installed, evaluated or replayed through an API key needs them all besides the route’s own, else 403 `api_key.scope_missing`. Sessions are not narrowed.',
      ),
    parameterScopes: z
      .array(z.object({ parameter: z.string(), scopes: z.array(z.string()) }))
      .describe('Scopes a parameter implies when it is in use (set, not empty, not false; absent counts as its default; an expression counts): `credentialId` → `connections:read`.'),
    workflowParams: z.array(z.string()).describe('Parameters whose values are workflows the node runs: the scopes of their published graphs count too (any of your published workflows when the value is an expression).'),
    paramsSchema: z.record(z.string(), z.unknown()).describe('The parameters as JSON Schema (draft 2020-12), with a description for every field.'),
    outputSchema: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe('The data the node puts on its outputs when it is known before any run (a mail trigger’s message summary), as JSON Schema; null when it depends on the run. The builder completes `{{ trigger.… }}` paths from it.'),
    forbidden: z.boolean().describe('Whether the instance forbids this type to the caller (`FORBIDDEN_NODE_TYPES`, members only): a graph using it is refused.'),
  })
  .meta({ id: 'NodeType' });

export const nodeTypeListOutput = z.object({ nodeTypes: z.array(nodeTypeSchema) });

export type NodeTypeOutput = z.infer<typeof nodeTypeSchema>;
