/**
 * One mailbox analysis, start to end (the `analyzer.run` task): statistics and sender groups from
 * the mirror and the journal, then the model phase; the report is written after each phase and the
 * member's browser hears `analyzer.progress` along the way.
 */
import type { AiNetOptions } from '../../../core/ai';
import { db } from '../../../core/db';
import { emitToMember } from '../../../core/realtime/emit';
import type { MailboxAnalysis } from '../../../generated/prisma/client';
import type { ReportBody } from '../schemas';
import { runModelPhase } from './model-phase';
import { computeGroups, computeStatistics, countGroupMessages } from './repo-statistics';
import { starterProposals, starterRules } from '../template-proposals';
import { findEnabledBySlugs } from '../../templates';
import { bodiesStillPending, findAnalysis, markMailboxAnalyzed, updateAnalysis } from '../repo';
import { enqueue } from '../../../core/jobs/enqueue';
import { jobKeys } from '../../../core/jobs/catalogue';

/**
 * An analysis asked in the first moments of a large mailbox's sync waits this long at most for the body pass: the
 * rows listed from their header have no list or bulk signals yet, so a newsletter's group would read as personal
 * mail (its proposal without `includeMailingLists`). Past it (a pass stopped by its budget, a server gone quiet), the
 * analysis counts what the mirror has.
 */
export const bodyPassWaitMs = 3 * 60_000;
/** While it waits, the analysis looks again this often: its job comes back later and holds no worker meanwhile. */
const bodyPassRecheckMs = 5_000;

/** The enabled starter templates the no-model proposals can name. */
const enabledStarters = () =>
  findEnabledBySlugs(starterRules.map((rule) => rule.slug)) as Promise<
    { id: string; slug: string; name: string; graph: unknown }[]
  >;

export interface AnalyzeOptions {
  /** Tests: the fake vendors' loopback address. */
  net?: AiNetOptions;
  now?: Date;
}

async function progress(row: MailboxAnalysis, status: string, phase: string | null, batchesDone = 0, batches = 0, transcript?: readonly unknown[]) {
  // The transcript so far is kept with the progress: a retry after a runner's death reuses its answers.
  await updateAnalysis(row.id, { status, progress: { phase, batchesDone, batches }, ...(transcript ? { transcript: transcript as object[] } : {}) });
  await emitToMember(row.memberId, 'analyzer.progress', { analysisId: row.id, mailboxId: row.mailboxId, status, phase, batchesDone, batches });
}

export async function runAnalysis(analysisId: string, options: AnalyzeOptions = {}): Promise<void> {
  const row = await findAnalysis(analysisId);
  // Finished (or gone with its mailbox): nothing to do. A `running` one whose job was retried starts over,
  // reusing the model's answers it had kept.
  if (!row || row.status === 'done' || row.status === 'failed') return;
  const now = options.now ?? new Date();
  if (now.getTime() - row.createdAt.getTime() < bodyPassWaitMs && (await bodiesStillPending(row.mailboxId)) > 0) {
    await progress(row, 'running', 'mail_sync');
    await enqueue('analyzer.run', { analysisId }, { jobKey: jobKeys.analysis(analysisId), runAt: new Date(Date.now() + bodyPassRecheckMs) });
    return;
  }
  await updateAnalysis(row.id, { startedAt: now });
  try {
    await progress(row, 'running', 'statistics');
    const input = { mailboxId: row.mailboxId, windowDays: row.windowDays, minGroupVolume: row.minGroupVolume, now };
    const stats = await computeStatistics(db(), input);
    await progress(row, 'running', 'groups');
    const { groups, total } = await computeGroups(db(), input);
    const body: ReportBody = { stats: { ...stats, groups: total, groupsAnalyzed: 0, llmOutcome: null }, groups, opportunities: [] };
    await updateAnalysis(row.id, { body: body as object });
    await progress(row, 'running', 'model');

    const result = await runModelPhase({
      memberId: row.memberId,
      mailboxId: row.mailboxId,
      groups,
      net: options.net,
      onBatch: (done, batches, transcript) => progress(row, 'running', 'model', done, batches, transcript),
      // A `running` row is a job retried after its runner died: the batches it had answered are reused.
      previousTranscript: row.status === 'running' && Array.isArray(row.transcript) ? row.transcript : undefined,
    });
    // Without a model's answer (no AI connection, or every call failed), the starter templates that fit the groups.
    if (result.outcome.status !== 'ran') result.opportunities.push(...starterProposals(groups, await enabledStarters()));
    // The evidence counts each message once, even when two of its groups hold it.
    for (const opportunity of result.opportunities) opportunity.evidence.messages = await countGroupMessages(db(), input, opportunity.evidence.groups);
    const final: ReportBody = { ...body, stats: { ...body.stats, groupsAnalyzed: result.groupsAnalyzed, llmOutcome: result.outcome }, opportunities: result.opportunities };
    const finishedAt = new Date();
    await db().$transaction([
      updateAnalysis(row.id, { status: 'done', body: final as object, llmOutcome: result.outcome, transcript: result.transcript as object[], finishedAt, progress: { phase: null, batchesDone: 0, batches: 0 } }),
      markMailboxAnalyzed(row.mailboxId, finishedAt),
    ]);
    await emitToMember(row.memberId, 'analyzer.progress', { analysisId: row.id, mailboxId: row.mailboxId, status: 'done', phase: null, batchesDone: 0, batches: 0 });
  } catch (error) {
    await updateAnalysis(row.id, { status: 'failed', finishedAt: new Date(), progress: { phase: null, batchesDone: 0, batches: 0 } });
    await emitToMember(row.memberId, 'analyzer.progress', { analysisId: row.id, mailboxId: row.mailboxId, status: 'failed', phase: null, batchesDone: 0, batches: 0 });
    throw error;
  }
}
