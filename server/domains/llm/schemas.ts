import { z } from 'zod';
import { isoDateTime } from '../../core/http/schemas';
import { aiProviders } from './catalogue';

export { aiProviders };

export const aiProvider = z.enum(aiProviders);

const label = z.string().trim().min(1).max(80);
const apiKey = z.string().min(1).max(512).describe('The provider’s API key (1-512). Encrypted at rest, never returned.');
const baseUrl = z
  .url()
  .max(2048)
  .describe('An http(s) URL (≤ 2048) without credentials, query or fragment; its host must pass the network guard.');
export const modelName = z.string().trim().min(1).max(128);
const enabledModels = z
  .array(modelName)
  .min(1)
  .max(64)
  .describe('1-64 model names of 1-128 characters: only these may be used on the connection. null: any model.');

/** One value per purpose, in the spec's order. */
function perPurpose<T extends z.ZodType>(schema: T) {
  return z.object({ classify: schema, compose: schema, extract: schema, general: schema, analyzer: schema, assistant: schema });
}

export const llmConnectionAdmin = z
  .object({
    id: z.uuid(),
    provider: aiProvider,
    label: z.string(),
    isDefault: z.boolean(),
    hasApiKey: z.boolean(),
    apiKeyHint: z.string().nullable().describe('The key’s last four characters (none for keys under 8 characters).'),
    baseUrl: z.string().nullable(),
    enabledModels: z.array(z.string()).nullable().describe('Only these models may be used; null: any model.'),
    updatedAt: isoDateTime,
  })
  .meta({ id: 'AiConnection' });

export type LlmConnectionAdmin = z.infer<typeof llmConnectionAdmin>;

export const llmConnectionMember = z
  .object({ id: z.uuid(), provider: aiProvider, label: z.string(), isDefault: z.boolean() })
  .meta({ id: 'AiConnectionSummary' });

export const adminConnectionListOutput = z.object({ connections: z.array(llmConnectionAdmin) });
export const memberConnectionListOutput = z.object({ connections: z.array(llmConnectionMember) });

export const createLlmConnectionInput = z.object({
  provider: aiProvider,
  label,
  apiKey: apiKey.optional(),
  baseUrl: baseUrl.nullable().optional().describe('Required for `ai_generic_compatible`; optional otherwise (a gateway in front of the vendor).'),
  withoutApiKey: z.boolean().optional().describe('Use the connection without a key (`ai_local`, `ai_generic_compatible` only). Default false.'),
  enabledModels: enabledModels.nullable().optional(),
  makeDefault: z.boolean().optional().describe('Make it the instance default (the previous default stops being one). Default false.'),
});

export type CreateLlmConnectionInput = z.infer<typeof createLlmConnectionInput>;

export const updateLlmConnectionInput = z.object({
  id: z.uuid(),
  label: label.optional(),
  apiKey: apiKey.optional().describe('Replaces the key; absent keeps the current one.'),
  baseUrl: baseUrl.nullable().optional().describe('Absent keeps it; null removes it.'),
  withoutApiKey: z.boolean().optional().describe('true removes the stored key (`ai_local`, `ai_generic_compatible` only); false requires a key.'),
  enabledModels: enabledModels.nullable().optional().describe('Absent keeps them; null allows any model.'),
});

export type UpdateLlmConnectionInput = z.infer<typeof updateLlmConnectionInput>;

export const deleteLlmConnectionOutput = z.object({ id: z.uuid(), deleted: z.literal(true) });

export const connectionModelsOutput = z.object({
  connectionId: z.uuid(),
  provider: aiProvider,
  models: z.array(z.string()),
  restricted: z.boolean().describe('true: only these models are allowed; false: suggestions, any model may be typed.'),
});

const providerModel = z.object({ provider: aiProvider, model: z.string() });

export const llmDefaultsOutput = z.object({
  defaults: perPurpose(providerModel.nullable()).describe('Per purpose, what serves it; null when no provider can serve.'),
});

const routingEntry = z.object({ connectionId: z.uuid(), model: modelName });

const effectiveEntry = z.object({
  connectionId: z.uuid(),
  provider: aiProvider,
  model: z.string(),
  source: z.enum(['purpose', 'instanceDefault', 'configurationOrder']),
});

export const routingOutput = z.object({
  routing: perPurpose(routingEntry.nullable()).describe('The administrator’s choice per purpose, or null.'),
  effective: perPurpose(effectiveEntry.nullable()).describe('What serves each purpose now (the choice, else the default connection, else the oldest connection), or null.'),
});

export const putRoutingInput = z.object({
  routing: z
    .strictObject({
      classify: routingEntry.nullable().optional(),
      compose: routingEntry.nullable().optional(),
      extract: routingEntry.nullable().optional(),
      general: routingEntry.nullable().optional(),
      analyzer: routingEntry.nullable().optional(),
      assistant: routingEntry.nullable().optional(),
    })
    .describe('Per purpose: {connectionId, model} sets the choice, null removes it, absent keeps it. Another key is 400.'),
});

export type PutRoutingInput = z.infer<typeof putRoutingInput>;

const usd = z.number().min(0).max(1_000_000);

const priceEntry = z.object({
  provider: aiProvider,
  model: modelName.describe('A model name, or `*` for every other model of the provider.'),
  inputUsdPerMillion: usd,
  outputUsdPerMillion: usd,
  reasoningUsdPerMillion: usd.nullable().optional().describe('Absent or null: reasoning tokens cost the output price.'),
});

export const putPricesInput = z.object({
  prices: z
    .array(priceEntry)
    .max(1000)
    .superRefine((entries, context) => {
      const seen = new Set<string>();
      entries.forEach((entry, index) => {
        const key = `${entry.provider}\n${entry.model}`;
        if (seen.has(key)) context.addIssue({ code: 'custom', message: 'The same provider and model twice.', path: [index, 'model'], input: entry });
        seen.add(key);
      });
    })
    .describe('The whole table (≤ 1000 entries, one per provider and model); it replaces the current one.'),
});

export type PutPricesInput = z.infer<typeof putPricesInput>;

export const pricesOutput = z.object({
  prices: z.array(
    z.object({
      provider: aiProvider,
      model: z.string(),
      inputUsdPerMillion: z.number(),
      outputUsdPerMillion: z.number(),
      reasoningUsdPerMillion: z.number().nullable(),
      updatedAt: isoDateTime,
    }),
  ),
});

const budget = z.number().min(0).max(1_000_000_000);

export const putBudgetsInput = z.object({
  instanceMonthlyUsd: budget.nullable().optional().describe('The whole instance’s monthly budget in USD; null: none; absent: unchanged.'),
  memberMonthlyUsd: budget.nullable().optional().describe('Each member’s monthly budget in USD; null: none; absent: unchanged.'),
});

export type PutBudgetsInput = z.infer<typeof putBudgetsInput>;

export const budgetsOutput = z.object({
  instanceMonthlyUsd: z.number().nullable(),
  memberMonthlyUsd: z.number().nullable(),
  month: z.string().describe('The current month (UTC), `YYYY-MM`.'),
  instanceSpentUsd: z.number().describe('What the instance spent this month (calls without a known price count 0).'),
  updatedAt: isoDateTime.nullable(),
});

export const usageQuery = z.object({
  month: z
    .string()
    .regex(/^2\d{3}-(0[1-9]|1[0-2])$/)
    .optional()
    .describe('`YYYY-MM` (UTC); default the current month.'),
});

const figures = {
  calls: z.number().int().min(0),
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
  reasoningTokens: z.number().int().min(0),
  costUsd: z.number().min(0).describe('The sum of known costs.'),
  unpricedCalls: z.number().int().min(0).describe('Calls whose cost is unknown (no price for their model).'),
  ownKeysCostUsd: z.number().min(0).describe('The part of `costUsd` spent on members’ own keys: their accounts paid, so it counts against no budget.'),
};

export const usageOutput = z.object({
  month: z.string(),
  from: isoDateTime,
  to: isoDateTime,
  totals: z.object(figures),
  byMember: z.array(z.object({ memberId: z.uuid().nullable(), name: z.string().nullable(), ...figures })),
  byPurpose: z.array(z.object({ purpose: z.string(), ...figures })),
  byModel: z.array(z.object({ provider: z.string(), model: z.string(), ...figures })),
});

export type UsageFigures = { [K in keyof typeof figures]: number };

export const connectionTestOutput = z
  .union([
    z.object({ ok: z.literal(true), modelCount: z.number().int().min(0), latencyMs: z.number().int().min(0) }),
    z.object({ ok: z.literal(false), code: z.string().describe('The provider layer’s error code (`auth`, `network`, `host_not_found`, `timeout`, `blocked_address`, …).'), message: z.string().max(300) }),
  ])
  .meta({ id: 'LlmConnectionTest' });

export const assistantModelsOutput = z.object({
  default: z
    .object({ provider: aiProvider, model: z.string(), source: z.enum(['purpose', 'instanceDefault', 'configurationOrder']) })
    .nullable()
    .describe('The model serving the assistant when the member picks none; null when no provider can serve.'),
  options: z.array(z.object({ provider: aiProvider, model: z.string(), connectionId: z.uuid(), connectionLabel: z.string(), supportsTools: z.boolean() })),
});
