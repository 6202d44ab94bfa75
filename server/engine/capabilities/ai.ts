/**
 * The `ai` capability (server/engine/capabilities/types.ts AiCapability): one model call for an AI
 * node, through the llm domain (routing, budgets, usage) and the provider layer (server/core/ai/).
 *
 * - The model: `resolveForPurpose` (the purpose's routing, the instance default, the configuration
 *   order); a node naming a model uses it on the first connection of that order, within its
 *   `enabledModels` (else `llm.model_not_allowed`). Nothing can serve: `llm.no_provider`.
 * - Budgets before the call (`llm.budget_exceeded`, permanent, nothing recorded: no cost).
 * - The call with the attempt's signal; `ai_local` reaches the instance's network only when
 *   LLM_LOCAL_ALLOW_PRIVATE says so (allowsPrivate), any provider the hosts LLM_ALLOW_HOSTS names.
 * - Usage recorded after a successful call (member, workflow, execution, step, purpose, tokens,
 *   cost at today's prices). A failed call records nothing: the SDK reports no usage for it.
 * - Errors by failureFamily: rate_limited → RateLimited (postponed, no attempt consumed; 60 s when
 *   the vendor gave no Retry-After), transient → `ai_call_failed` / `ai_invalid_output` temporary,
 *   others permanent.
 * - Simulated runs (test runs, evaluations) call no model unless the run asks (`callModels`): they
 *   answer the node's deterministic `simulate()` instead, marked `simulated`.
 */
import { callModel, failureFamily, isAiCallError, type AiNetOptions } from '../../core/ai';
import { db } from '../../core/db';
import { AppError } from '../../core/errors/app-error';
import { allowsPrivate, llmAllowAddress } from '../../domains/llm/base-url';
import { endpointOf } from '../../domains/llm/repo';
import { isRefusal } from '../../domains/llm/resolve';
import { resolveForPurpose } from '../../domains/llm/routing';
import { enforceBudget, recordUsage } from '../../domains/llm/usage';
import { fail, NodeFailure, RateLimited } from '../run/failures';
import type { AiCapability, AiCallInput, AiCallOutcome } from './types';

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

const defaultRateLimitWaitMs = 60_000;

export function simulatedOutcome(input: Pick<AiCallInput, 'simulate'>): AiCallOutcome {
  const answer = input.simulate();
  return { text: answer.text, object: answer.object, toolCalls: [], provider: null, model: null, usage: null, costUsd: null, simulated: true };
}

export function createAiCapability(run: AiCapabilityRun): AiCapability {
  return {
    async call(input) {
      if (run.simulated && !run.callModels) return simulatedOutcome(input);
      const choice = await resolveForPurpose(input.purpose, input.model ? { model: input.model } : undefined);
      if (choice === null) throw fail.permanent('llm.no_provider');
      if (isRefusal(choice)) {
        if (choice.refused === 'model_not_allowed') throw fail.permanent('llm.model_not_allowed', { details: { model: input.model ?? null } });
        throw fail.permanent('llm.no_provider');
      }
      try {
        await enforceBudget(run.memberId);
      } catch (error) {
        if (error instanceof AppError && error.code === 'llm.budget_exceeded') {
          throw fail.permanent('llm.budget_exceeded', { details: { ...error.details } });
        }
        throw error;
      }
      const endpoint = endpointOf(choice.connection.row);
      let result;
      try {
        result = await callModel({
          endpoint,
          model: choice.model,
          system: input.system,
          messages: input.messages,
          output: input.output,
          tools: input.tools,
          signal: input.signal,
          // The operator's LLM_ALLOW_HOSTS opens named hosts of the instance's network (tests may replace it).
          net: { allowAddress: llmAllowAddress(), ...run.net, allowPrivate: allowsPrivate(endpoint.provider) },
        });
      } catch (error) {
        throw aiFailure(error);
      }
      const record = {
        connectionId: choice.connection.id,
        provider: endpoint.provider,
        model: choice.model,
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
      const usage = await db().$transaction(async (tx) => {
        await tx.$executeRaw`SET LOCAL synchronous_commit = off`;
        return recordUsage(record, tx);
      });
      return {
        text: result.text,
        object: result.object,
        toolCalls: result.toolCalls,
        provider: endpoint.provider,
        model: choice.model,
        usage: result.usage,
        costUsd: usage.costUsd,
        simulated: false,
      };
    },
  };
}

/** A provider-layer error as the engine's failure (RateLimited is a postponement, not a failure). */
export function aiFailure(error: unknown, now = Date.now()): unknown {
  if (error instanceof NodeFailure || error instanceof RateLimited) return error;
  if (!isAiCallError(error)) return error;
  const details = { code: error.code, provider: error.provider, status: error.status };
  switch (failureFamily(error)) {
    case 'rate_limited':
      return new RateLimited(new Date(now + (error.retryAfterMs ?? defaultRateLimitWaitMs)));
    case 'transient':
      return fail.transient(error.kind === 'invalid_output' ? 'ai_invalid_output' : 'ai_call_failed', { message: error.message, details });
    case 'permanent':
      return fail.permanent('ai_call_failed', { message: error.message, details });
  }
}
