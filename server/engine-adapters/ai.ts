/**
 * The `ai` capability (server/engine/contract/capabilities.ts AiCapability): one model call for an AI
 * node, through the llm domain (routing, budgets, usage) and the provider layer (server/core/ai/).
 *
 * - The model: the member's own key when they stored one and the instance allows it
 *   (`memberChoice`: their account pays, so no budget applies); else `resolveForPurpose` (the
 *   purpose's routing, the instance default, the configuration order); a node naming a model uses it
 *   on the first connection of that order, within its `enabledModels` (else `llm.model_not_allowed`).
 *   Nothing can serve: `llm.no_provider`.
 * - Budgets before an instance-paid call (`llm.budget_exceeded`, permanent, nothing recorded: no cost).
 * - The call with the attempt's signal through `llmNetOptions`: `ai_local` reaches the instance's
 *   network only when LLM_LOCAL_ALLOW_PRIVATE says so (never on a member's key), any provider the
 *   hosts LLM_ALLOW_HOSTS names.
 * - Usage recorded after a successful call (member, workflow, execution, step, purpose, tokens,
 *   cost at today's prices, the member's key when it served). A failed call records nothing: the SDK reports no usage for it.
 * - Errors by failureFamily: rate_limited → RateLimited (postponed, no attempt consumed; 60 s when
 *   the vendor gave no Retry-After), transient → `ai_call_failed` / `ai_invalid_output` temporary,
 *   others permanent.
 * - Simulated runs (test runs, evaluations) call no model unless the run asks (`callModels`): they
 *   answer the node's deterministic `simulate()` instead, marked `simulated`.
 */
import { callModel, type AiNetOptions } from '../core/ai';
import type { AiEndpoint } from '../core/ai/types';
import { AppError } from '../core/errors/app-error';
import { endpointOf, enforceBudget, isRefusal, llmNetOptions, memberChoice, pricesOfModel, recordCallUsage, resolveForPurpose } from '../domains/llm/engine-api';
import { aiFailure, simulatedOutcome } from '../engine/contract/ai-outcomes';
import { fail } from '../engine/contract/failures';
import type { AiCapability, AiCallInput } from '../engine/contract/capabilities';

export interface AiCapabilityRun {
  memberId: string;
  workflowId: string | null;
  executionId: string;
  stepId: string | null;
  simulated: boolean;
  /** A simulated run that asked for real model calls. */
  callModels?: boolean;
  /** Tests only: opens the fake vendors' loopback addresses (never from member input). */
  net?: AiNetOptions;
}


/** Where one call goes: an endpoint, its model, and who pays (an instance connection or the member's key). */
interface CallTarget {
  endpoint: AiEndpoint;
  model: string;
  connectionId: string | null;
  credentialId: string | null;
}

async function ownKeyTarget(memberId: string, model: string | undefined): Promise<CallTarget | null> {
  const own = await memberChoice(memberId, model);
  if (own === null) return null;
  return { endpoint: own.endpoint, model: own.model, connectionId: null, credentialId: own.endpoint.connectionId };
}

async function instanceTarget(memberId: string, input: AiCallInput): Promise<CallTarget> {
  const choice = await resolveForPurpose(input.purpose, input.model ? { model: input.model } : undefined);
  if (choice === null) throw fail.permanent('llm.no_provider');
  if (isRefusal(choice)) {
    if (choice.refused === 'model_not_allowed') throw fail.permanent('llm.model_not_allowed', { details: { model: input.model ?? null } });
    throw fail.permanent('llm.no_provider');
  }
  try {
    await enforceBudget(memberId);
  } catch (error) {
    if (error instanceof AppError && error.code === 'llm.budget_exceeded') {
      throw fail.permanent('llm.budget_exceeded', { details: { ...error.details } });
    }
    throw error;
  }
  return { endpoint: endpointOf(choice.connection.row), model: choice.model, connectionId: choice.connection.id, credentialId: null };
}

export function createAiCapability(run: AiCapabilityRun): AiCapability {
  return {
    async call(input) {
      if (run.simulated && !run.callModels) return simulatedOutcome(input);
      const target = (await ownKeyTarget(run.memberId, input.model)) ?? (await instanceTarget(run.memberId, input));
      const { endpoint, model } = target;
      const net = llmNetOptions(endpoint.provider, { forMember: target.credentialId !== null });
      // Read while the model answers: its prices are known before the call, and the row after it is then one
      // statement. Awaited only after a successful call; a failed call records nothing (the catch keeps its
      // rejection from being reported as unhandled meanwhile).
      const prices = pricesOfModel(endpoint.provider, model);
      prices.catch(() => {});
      let result;
      try {
        result = await callModel({
          endpoint,
          model,
          system: input.system,
          messages: input.messages,
          output: input.output,
          tools: input.tools,
          signal: input.signal,
          // Tests may open the fakes' loopback addresses (run.net); the private-network rule stays the provider's.
          net: { ...net, ...run.net, allowPrivate: net.allowPrivate },
        });
      } catch (error) {
        throw aiFailure(error);
      }
      const record = {
        connectionId: target.connectionId,
        credentialId: target.credentialId,
        provider: endpoint.provider,
        model,
        purpose: input.purpose,
        memberId: run.memberId,
        workflowId: run.workflowId,
        executionId: run.executionId,
        stepId: run.stepId,
        inputTokens: result.usage.inputTokens,
        outputTokens: result.usage.outputTokens,
        reasoningTokens: result.usage.reasoningTokens ?? 0,
      };
      // A usage row is accounting, not an effect: its commit does not wait for the WAL flush (a crash
      // may lose the last fraction of a second of rows; never a half row). Saves a disk flush per call.
      const usage = await recordCallUsage(record, await prices);
      return {
        text: result.text,
        object: result.object,
        toolCalls: result.toolCalls,
        provider: endpoint.provider,
        model,
        usage: result.usage,
        costUsd: usage.costUsd,
        simulated: false,
      };
    },
  };
}
