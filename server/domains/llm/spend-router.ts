import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import { budgetsOutput, pricesOutput, putBudgetsInput, putPricesInput, usageOutput, usageQuery } from './schemas';
import { getBudgets, getPrices, putBudgets, putPrices, usageSummary } from './usage';
import { docs } from './spend-docs';

const tag = 'AI models';
const adminRead = { kind: 'scope', scope: 'admin:read', admin: true } as const;
const adminWrite = { kind: 'scope', scope: 'admin:write', admin: true } as const;

export const llmSpendRouter = router({
  getPrices: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/admin/llm/prices',
        access: adminRead,
        tag,
        summary: docs.getPrices.summary,
        description: docs.getPrices.description,
      }),
    )
    .output(pricesOutput)
    .query(() => getPrices()),

  putPrices: procedure
    .meta(
      route({
        method: 'PUT',
        path: '/api/v1/admin/llm/prices',
        access: adminWrite,
        tag,
        summary: docs.putPrices.summary,
        description: docs.putPrices.description,
      }),
    )
    .input(putPricesInput)
    .output(pricesOutput)
    .mutation(({ ctx, input }) => putPrices(actorOf(ctx), input, ctx.ip)),

  getBudgets: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/admin/llm/budgets',
        access: adminRead,
        tag,
        summary: docs.getBudgets.summary,
        description: docs.getBudgets.description,
      }),
    )
    .output(budgetsOutput)
    .query(() => getBudgets()),

  putBudgets: procedure
    .meta(
      route({
        method: 'PUT',
        path: '/api/v1/admin/llm/budgets',
        access: adminWrite,
        tag,
        summary: docs.putBudgets.summary,
        description: docs.putBudgets.description,
      }),
    )
    .input(putBudgetsInput)
    .output(budgetsOutput)
    .mutation(({ ctx, input }) => putBudgets(actorOf(ctx), input, ctx.ip)),

  usage: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/admin/llm/usage',
        access: adminRead,
        tag,
        summary: docs.usage.summary,
        description: docs.usage.description,
      }),
    )
    .input(usageQuery)
    .output(usageOutput)
    .query(({ input }) => usageSummary(input)),
});
