/**
 * The analyzer's model phase: sender groups in batches to the `analyzer` purpose's model, which
 * answers (zod structured output) which groups deserve which kind of automation and why. Our code
 * builds each opportunity's evidence and graph (server/domains/analyzer/graphs.ts).
 *
 * Each answered batch is kept (its transcript entry, with its usage) as the phase goes, so a job
 * retried after its runner died asks the model again only for the batches not answered yet: the same
 * request (same groups, same figures) finds its answer in the kept transcript, costs nothing more and
 * records no usage a second time.
 */
import { z } from 'zod';
import { callModel, isAiCallError, type AiNetOptions } from '../../../core/ai';
import { isAppError } from '../../../core/errors/app-error';
import { buildOpportunityGraph } from '../graphs';
import { analyzerBounds, opportunityKinds, type LlmOutcome, type Opportunity, type SenderGroup } from '../schemas';
import { endpointOf, enforceBudget, llmNetOptions, recordUsage, resolveForPurpose } from '../../llm';

export const proposalSchema = z.object({
  proposals: z
    .array(
      z.object({
        groupKeys: z.array(z.string().max(300)).min(1).max(20),
        kind: z.enum(opportunityKinds),
        title: z.string().min(1).max(120),
        rationale: z.string().max(600),
      }),
    )
    .max(20),
});

const system = [
  'You look at groups of mail a person receives and propose automations.',
  'Each group has a key, a kind (domain, list: one mailing list by its List-Id, subject: one subject pattern), its label, its volume over the period, senders, sample subjects and shares of list mail (mailing lists and bulk mail such as newsletters), no-reply and attachment mail.',
  'Propose only clear wins, each for one or more groups of the list (by their exact keys), of one kind:',
  'label_archive (newsletters, notifications: label and archive), extract_table (invoices, orders, receipts: extract into a table),',
  'draft_reply (many mails asking the same question: draft a reply for review), notify (important mail to be told about at once).',
  'A short title (e.g. "Newsletters from these 14 senders: label and archive") and a one-sentence rationale. Propose nothing when nothing fits.',
].join(' ');

export interface ModelPhaseInput {
  memberId: string;
  mailboxId: string;
  groups: readonly SenderGroup[];
  net?: AiNetOptions;
  /** Called after each batch (for the live progress), with the transcript so far (to be kept). */
  onBatch?: (done: number, total: number, transcript: readonly unknown[]) => Promise<void>;
  /** The transcript an earlier, interrupted run of this analysis kept: its answers are reused. */
  previousTranscript?: readonly unknown[];
  timeoutMs?: number;
}

export interface ModelPhaseResult {
  outcome: LlmOutcome;
  opportunities: Opportunity[];
  transcript: unknown[];
  groupsAnalyzed: number;
}

const clip = (text: string) => (text.length > analyzerBounds.messageMax ? text.slice(0, analyzerBounds.messageMax) : text);

interface AnsweredEntry {
  batch: number;
  request: { system: string; user: string };
  response: { text: string; object: unknown; model: string };
  usage: { inputTokens: number; outputTokens: number; reasoningTokens: number | null; costUsd: number | null };
}

/** The answered entries of a kept transcript, by their request (anything malformed is ignored). */
function answersOf(transcript: readonly unknown[] | undefined): Map<string, AnsweredEntry> {
  const answers = new Map<string, AnsweredEntry>();
  for (const entry of transcript ?? []) {
    const candidate = entry as Partial<AnsweredEntry> | null;
    if (typeof candidate?.request?.user === 'string' && candidate.response && candidate.usage) answers.set(candidate.request.user, candidate as AnsweredEntry);
  }
  return answers;
}

function failureOf(error: unknown): { code: string; message: string } {
  if (isAiCallError(error)) return { code: error.code, message: clip(error.message) };
  if (isAppError(error)) return { code: error.code, message: clip(error.message) };
  return { code: 'internal', message: 'The model call failed.' };
}

export async function runModelPhase(input: ModelPhaseInput): Promise<ModelPhaseResult> {
  if (input.groups.length === 0) return { outcome: { status: 'nothing_to_analyze' }, opportunities: [], transcript: [], groupsAnalyzed: 0 };
  const choice = await resolveForPurpose('analyzer');
  if (!choice || 'refused' in choice) return { outcome: { status: 'no_provider' }, opportunities: [], transcript: [], groupsAnalyzed: 0 };

  const chosen = choice;
  const endpoint = endpointOf(chosen.connection.row);
  const attempted = input.groups.slice(0, analyzerBounds.maxGroupsAnalyzed);
  const batches: SenderGroup[][] = [];
  for (let index = 0; index < attempted.length; index += analyzerBounds.batchSize) batches.push(attempted.slice(index, index + analyzerBounds.batchSize));

  const transcript: unknown[] = [];
  const opportunities: Opportunity[] = [];
  const usage = { model: choice.model, inputTokens: 0, outputTokens: 0, reasoningTokens: null as number | null, costUsd: 0 as number | null };
  let failedBatches = 0;
  let groupsAnswered = 0;
  let lastFailure: { code: string; message: string } | null = null;
  let calls = 0;
  const kept = answersOf(input.previousTranscript);

  /** One batch to the model, within the budget, its usage recorded. */
  async function askModel(user: string) {
    await enforceBudget(input.memberId);
    const result = await callModel({
      endpoint,
      model: chosen.model,
      system,
      messages: [{ role: 'user', content: user }],
      output: proposalSchema,
      signal: AbortSignal.timeout(input.timeoutMs ?? 120_000),
      // The instance's rules (ai_local's exception, LLM_ALLOW_HOSTS) unless a test opens the fakes.
      net: input.net ?? llmNetOptions(endpoint.provider),
    });
    const recorded = await recordUsage({
      connectionId: chosen.connection.id,
      provider: chosen.connection.provider,
      model: chosen.model,
      purpose: 'analyzer',
      memberId: input.memberId,
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
      reasoningTokens: result.usage.reasoningTokens ?? 0,
    });
    return {
      object: result.object ?? { proposals: [] },
      response: { text: result.text, object: result.object ?? null, model: result.model },
      usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens, reasoningTokens: result.usage.reasoningTokens, costUsd: recorded.costUsd },
    };
  }

  for (const [index, batch] of batches.entries()) {
    const user = JSON.stringify({
      groups: batch.map((group) => ({
        key: group.key,
        kind: group.kind,
        label: group.label,
        volume: group.volume,
        senders: group.senders,
        topSenders: group.topSenders,
        sampleSubjects: group.sampleSubjects,
        mailingListShare: group.mailingListShare,
        noReplyShare: group.noReplyShare,
        attachmentShare: group.attachmentShare,
      })),
    });
    try {
      const answered = kept.get(user);
      const answer = answered ? proposalSchema.safeParse(answered.response.object) : undefined;
      const result = answered && answer?.success ? { ...answered, object: answer.data } : await askModel(user);
      calls += 1;
      usage.inputTokens += result.usage.inputTokens;
      usage.outputTokens += result.usage.outputTokens;
      if (result.usage.reasoningTokens !== null) usage.reasoningTokens = (usage.reasoningTokens ?? 0) + result.usage.reasoningTokens;
      usage.costUsd = usage.costUsd === null || result.usage.costUsd === null ? null : usage.costUsd + result.usage.costUsd;
      transcript.push({ batch: index, request: { system, user }, response: result.response, usage: result.usage });
      groupsAnswered += batch.length;
      const byKey = new Map(batch.map((group) => [group.key, group]));
      for (const proposal of result.object.proposals) {
        const groups = [...new Set(proposal.groupKeys)].map((key) => byKey.get(key)).filter((group): group is SenderGroup => group !== undefined);
        if (groups.length === 0) continue;
        opportunities.push({
          key: `o${opportunities.length + 1}`,
          kind: proposal.kind,
          title: proposal.title,
          rationale: proposal.rationale,
          evidence: {
            groups: groups.map((group) => ({ key: group.key, label: group.label, volume: group.volume })),
            messages: groups.reduce((sum, group) => sum + group.volume, 0),
            // A domain group and a subject group of the same mail share their samples: each subject once.
            sampleSubjects: [...new Set(groups.flatMap((group) => group.sampleSubjects))].slice(0, 5),
          },
          graph: buildOpportunityGraph(proposal.kind, input.mailboxId, groups, proposal.title) as unknown as Record<string, unknown>,
        });
      }
    } catch (error) {
      failedBatches += 1;
      lastFailure = failureOf(error);
      transcript.push({ batch: index, request: { system, user }, error: lastFailure });
      // Over budget: the following batches would be refused too.
      if (isAppError(error) && error.code === 'llm.budget_exceeded') {
        failedBatches += batches.length - index - 1;
        await input.onBatch?.(batches.length, batches.length, transcript);
        break;
      }
    }
    await input.onBatch?.(index + 1, batches.length, transcript);
  }

  const counters = { batches: batches.length, failedBatches, groupsAttempted: attempted.length, groupsAnswered };
  const totalUsage = { ...usage, costUsd: calls === 0 ? null : usage.costUsd };
  if (failedBatches === batches.length && lastFailure) {
    return { outcome: { status: 'failed', code: lastFailure.code, message: lastFailure.message, ...counters, usage: null }, opportunities, transcript, groupsAnalyzed: 0 };
  }
  return { outcome: { status: 'ran', usage: totalUsage, ...counters, failure: lastFailure }, opportunities, transcript, groupsAnalyzed: groupsAnswered };
}
