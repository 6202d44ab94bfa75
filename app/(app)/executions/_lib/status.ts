/**
 * How statuses look (badge tones, canvas colours) and how long things took. Pure: shared by the
 * executions list, the execution page and the workflow canvas, and tested beside.
 */
import type { Locale } from '@/app/i18n';
import type { BadgeTone } from '@/app/ui/badge';

export const executionStatuses = ['queued', 'running', 'waiting', 'succeeded', 'failed', 'cancelled'] as const;
export type ExecutionStatus = (typeof executionStatuses)[number];

export const stepStatuses = ['queued', 'running', 'waiting', 'succeeded', 'failed', 'skipped'] as const;
export type StepStatus = (typeof stepStatuses)[number];

export const workflowStatuses = ['draft', 'published', 'paused', 'archived'] as const;
export type WorkflowStatus = (typeof workflowStatuses)[number];

/** Runs that may still change: cancel applies to them, replay refuses them. */
export function isInProgress(status: string): boolean {
  return status === 'queued' || status === 'running' || status === 'waiting';
}

export function executionStatusTone(status: string): BadgeTone {
  switch (status) {
    case 'succeeded':
      return 'success';
    case 'failed':
      return 'danger';
    case 'running':
      return 'brand';
    case 'waiting':
      return 'warning';
    default:
      return 'neutral';
  }
}

export function workflowStatusTone(status: string): BadgeTone {
  switch (status) {
    case 'published':
      return 'success';
    case 'paused':
      return 'warning';
    case 'archived':
      return 'neutral';
    default:
      return 'brand';
  }
}

/** The colour of a node on the canvas from its step's status (no step yet: neutral). */
export type StatusColour = 'green' | 'red' | 'blue' | 'amber' | 'grey' | 'neutral';

export function statusColour(status: string | null | undefined): StatusColour {
  switch (status) {
    case 'succeeded':
      return 'green';
    case 'failed':
      return 'red';
    case 'running':
      return 'blue';
    case 'waiting':
      return 'amber';
    case 'skipped':
    case 'cancelled':
      return 'grey';
    default:
      return 'neutral';
  }
}

/** Tailwind classes of each colour for a canvas node's frame. */
export const colourClasses: Record<StatusColour, string> = {
  green: 'border-emerald-500 bg-emerald-50 dark:bg-emerald-950/50',
  red: 'border-red-500 bg-red-50 dark:bg-red-950/50',
  blue: 'border-sky-500 bg-sky-50 dark:bg-sky-950/50',
  amber: 'border-amber-500 bg-amber-50 dark:bg-amber-950/50',
  grey: 'border-zinc-300 bg-zinc-100 text-muted dark:border-zinc-600 dark:bg-zinc-800/60',
  neutral: 'border-line-strong bg-surface',
};

/** "850 ms", "12.4 s", "4 min 05 s", "2 h 03 min". */
export function formatDuration(ms: number, locale: Locale): string {
  const value = Math.max(0, Math.round(ms));
  if (value < 1_000) return `${value}\u00a0ms`;
  if (value < 60_000) {
    const seconds = new Intl.NumberFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', { maximumFractionDigits: 1 }).format(value / 1_000);
    return `${seconds}\u00a0s`;
  }
  const totalSeconds = Math.floor(value / 1_000);
  if (totalSeconds < 3_600) return `${Math.floor(totalSeconds / 60)}\u00a0min ${String(totalSeconds % 60).padStart(2, '0')}\u00a0s`;
  const minutes = Math.floor(totalSeconds / 60);
  return `${Math.floor(minutes / 60)}\u00a0h ${String(minutes % 60).padStart(2, '0')}\u00a0min`;
}

/** A run's duration: start to finish, or to now while it runs; null before it starts. */
export function durationMs(startedAt: string | null, finishedAt: string | null, now: number = Date.now()): number | null {
  if (!startedAt) return null;
  const start = Date.parse(startedAt);
  const end = finishedAt ? Date.parse(finishedAt) : now;
  if (!Number.isFinite(start) || !Number.isFinite(end)) return null;
  return Math.max(0, end - start);
}
