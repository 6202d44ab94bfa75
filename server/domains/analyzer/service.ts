/**
 * The mailbox analyzer's routes: start an analysis (or reuse today's), read the latest report,
 * install an opportunity's draft workflow. The runner's `analyzer.run` task does the work
 * (server/domains/analyzer/run/).
 */
import type { AuthenticatedActor } from '../../core/auth/access';
import { db } from '../../core/db';
import { appError } from '../../core/errors/app-error';
import { jobKeys } from '../../core/jobs/catalogue';
import { enqueue } from '../../core/jobs/enqueue';
import { emitToMember } from '../../core/realtime/emit';
import { isUuid } from '../../core/ids';
import { createWorkflow } from '../workflows';
import { installTemplate } from '../templates';
import { presentReport, presentReportRef } from './present';
import { findLatestAnalysis, findLiveAnalysisSince, findOwnedMailbox, insertAnalysis, lockMailboxAnalyses } from './repo';
import { reportBodySchema, type AnalyzeInput } from './schemas';

const startOfTodayUtc = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

async function ownedMailboxOrThrow(memberId: string, id: string) {
  const mailbox = isUuid(id) ? await findOwnedMailbox(memberId, id.toLowerCase()) : null;
  if (!mailbox) throw appError('analyzer.mailbox_not_found');
  return mailbox;
}

/**
 * Starts an analysis, or answers today's (UTC) report when one exists that has not failed and
 * `force` is not set (`reused: true`; its options stay those it was made with).
 */
export async function analyzeMailbox(actor: AuthenticatedActor, input: AnalyzeInput) {
  const memberId = actor.member.id;
  const mailbox = await ownedMailboxOrThrow(memberId, input.id);
  return db().$transaction(async (tx) => {
    // Concurrent starts of one mailbox serialise here: two analyses never start together by accident.
    await lockMailboxAnalyses(tx, mailbox.id);
    if (!input.force) {
      const today = await findLiveAnalysisSince(tx, mailbox.id, startOfTodayUtc(new Date()));
      if (today) return { report: { ...presentReportRef(today), reused: true } };
    }
    const row = await insertAnalysis(tx, { mailboxId: mailbox.id, memberId, windowDays: input.windowDays, minGroupVolume: input.minGroupVolume, progress: { phase: null, batchesDone: 0, batches: 0 } });
    await enqueue('analyzer.run', { analysisId: row.id }, { jobKey: jobKeys.analysis(row.id) }, tx);
    await emitToMember(memberId, 'analyzer.progress', { analysisId: row.id, mailboxId: mailbox.id, status: row.status, phase: null, batchesDone: 0, batches: 0 }, tx);
    return { report: { ...presentReportRef(row), reused: false } };
  });
}

async function latestOrThrow(memberId: string, mailboxId: string) {
  const mailbox = await ownedMailboxOrThrow(memberId, mailboxId);
  const row = await findLatestAnalysis(mailbox.id);
  if (!row) throw appError('analyzer.report_not_found');
  return row;
}

/** The latest report of any status; raw transcripts for administrators only. */
export async function getLatestReport(actor: AuthenticatedActor, mailboxId: string) {
  const row = await latestOrThrow(actor.member.id, mailboxId);
  return { report: presentReport(row, actor.member.role === 'admin') };
}

/** Installs the opportunity's graph (of the latest report) as a new draft workflow of the member. */
export async function createFromOpportunity(actor: AuthenticatedActor, input: { id: string; key: string }, ip: string | null) {
  const row = await latestOrThrow(actor.member.id, input.id);
  const body = reportBodySchema.safeParse(row.body);
  const opportunity = body.success ? body.data.opportunities.find((candidate) => candidate.key === input.key) : undefined;
  if (!opportunity) throw appError('analyzer.opportunity_not_found');
  // A starter template proposed without a model installs as the template (counted; its note comes along).
  if (opportunity.template) return installTemplate(actor, { id: opportunity.template.id }, ip);
  const created = await createWorkflow(
    actor,
    { name: opportunity.title.slice(0, 200), description: opportunity.rationale.slice(0, 2000), graph: opportunity.graph as never },
    ip,
  );
  return { workflowId: created.workflow.id };
}
