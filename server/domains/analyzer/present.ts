/** Stored analyses → the API's report resources. */
import type { MailboxAnalysis } from '../../generated/prisma/client';
import { iso } from '../../core/http/schemas';
import { analysisStatuses, llmOutcomeSchema, reportBodySchema, type AnalysisStatus, type ReportOutput } from './schemas';

const statusOf = (value: string): AnalysisStatus => ((analysisStatuses as readonly string[]).includes(value) ? (value as AnalysisStatus) : 'failed');
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function presentReportRef(row: MailboxAnalysis) {
  return {
    id: row.id,
    mailboxId: row.mailboxId,
    status: statusOf(row.status),
    createdAt: iso(row.createdAt),
    generatedAt: row.status === 'done' || row.status === 'failed' ? iso(row.finishedAt) : null,
  };
}

export function presentReport(row: MailboxAnalysis, withTranscript: boolean): ReportOutput['report'] {
  const body = reportBodySchema.safeParse(row.body);
  const outcome = llmOutcomeSchema.safeParse(row.llmOutcome);
  const progress = isObject(row.progress) ? row.progress : {};
  return {
    ...presentReportRef(row),
    options: { windowDays: row.windowDays, minGroupVolume: row.minGroupVolume },
    progress: {
      phase: typeof progress.phase === 'string' ? progress.phase : null,
      batchesDone: Number(progress.batchesDone) || 0,
      batches: Number(progress.batches) || 0,
    },
    body: body.success ? body.data : null,
    llmOutcome: outcome.success ? outcome.data : null,
    ...(withTranscript ? { transcript: Array.isArray(row.transcript) ? row.transcript : [] } : {}),
  };
}
