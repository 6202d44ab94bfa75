/** Stored evaluation runs and cases → the API's resources. */
import type { EvalCase, EvalRun } from '../../generated/prisma/client';
import { iso } from '../../core/http/schemas';
import { notStartedVerdicts } from '../../engine';
import type { NotStartedVerdict } from '../../engine';
import type { EvalCaseOutput, EvalRunOutput } from './schemas';

type Effect = { kind: string; description: string };
type CaseError = { code: string; message: string; nodeId?: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export function effectsOf(value: unknown): Effect[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((effect) => ({ kind: text(effect.kind) ?? 'unknown', description: text(effect.description) ?? '' }));
}

export function caseErrorOf(value: unknown): CaseError | null {
  if (!isObject(value)) return null;
  const nodeId = text(value.nodeId);
  return { code: text(value.code) ?? 'internal', message: text(value.message) ?? '', ...(nodeId ? { nodeId } : {}) };
}

function sourceOf(value: unknown): EvalRunOutput['source'] {
  const source = isObject(value) ? value : {};
  if (source.kind === 'range') return { kind: 'range', from: String(source.from), to: String(source.to), limit: Number(source.limit) || 0 };
  if (source.kind === 'trigger_data') return { kind: 'trigger_data', count: Number(source.count) || 0 };
  return { kind: 'recent', limit: Number(source.limit) || 0 };
}

/** `costUsd`: the known cost of the run's model calls (repo `modelCostsOf`); ignored when the run calls no model. */
export function presentEvalRun(row: EvalRun, costUsd = 0, reasons: EvalRunOutput['reasons'] = []): EvalRunOutput {
  const error = isObject(row.error) ? { code: text(row.error.code) ?? 'internal', message: text(row.error.message) ?? '' } : null;
  return {
    id: row.id,
    workflowId: row.workflowId,
    versionId: row.versionId,
    baseline: row.baseline as EvalRunOutput['baseline'],
    baselineVersionId: row.baselineVersionId,
    source: sourceOf(row.source),
    status: row.status as EvalRunOutput['status'],
    progress: { done: row.done, total: row.total },
    figures: { triggered: row.triggered, wouldSend: row.wouldSend, wouldDraft: row.wouldDraft, errors: row.errors, changed: row.changed },
    reasons,
    callModels: row.callModels,
    costUsd: row.callModels ? Math.round(costUsd * 1e6) / 1e6 : null,
    error,
    createdAt: iso(row.createdAt),
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
  };
}

const verdicts: readonly string[] = notStartedVerdicts;

/** A case's stored reason (drive.ts writes it from `mailStartReasonOf`), or null. */
export function reasonOf(value: unknown): EvalCaseOutput['reason'] {
  if (!isObject(value) || typeof value.verdict !== 'string' || !verdicts.includes(value.verdict)) return null;
  return { verdict: value.verdict as NotStartedVerdict, ruleRef: text(value.ruleRef), param: text(value.param) };
}

function headlineOf(value: unknown): EvalCaseOutput['headline'] {
  if (!isObject(value)) return null;
  return { subject: text(value.subject), fromName: text(value.fromName), fromEmail: text(value.fromEmail) };
}

function baselineOf(value: unknown): EvalCaseOutput['baseline'] {
  if (!isObject(value)) return null;
  return {
    triggered: value.triggered === true,
    path: Array.isArray(value.path) ? value.path.filter((item): item is string => typeof item === 'string') : [],
    effects: effectsOf(value.effects),
    error: caseErrorOf(value.error),
  };
}

export function presentEvalCase(row: EvalCase): EvalCaseOutput {
  return {
    id: row.id,
    index: row.index,
    messageId: row.messageId,
    headline: headlineOf(row.headline),
    status: row.status as EvalCaseOutput['status'],
    triggered: row.triggered,
    reason: reasonOf(row.reason),
    path: row.path ?? [],
    effects: effectsOf(row.effects),
    error: caseErrorOf(row.error),
    baseline: baselineOf(row.baseline),
    changed: row.changed,
    executionId: row.executionId,
    baselineExecutionId: row.baselineExecutionId,
  };
}
