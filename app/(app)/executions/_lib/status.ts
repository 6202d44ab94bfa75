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

/** "850 ms", "12.4 s", "4 min 05 s", "1 min", "2 h 03 min", "1 h", "30 d" ("30 j" in French). */
export function formatDuration(ms: number, locale: Locale): string {
  const value = Math.max(0, Math.round(ms));
  const nbsp = '\u00a0';
  if (value < 1_000) return `${value}${nbsp}ms`;
  if (value < 60_000) {
    const seconds = new Intl.NumberFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', { maximumFractionDigits: 1 }).format(value / 1_000);
    return `${seconds}${nbsp}s`;
  }
  const pair = (big: number, bigUnit: string, small: number, smallUnit: string) =>
    small === 0 ? `${big}${nbsp}${bigUnit}` : `${big}${nbsp}${bigUnit} ${String(small).padStart(2, '0')}${nbsp}${smallUnit}`;
  const totalSeconds = Math.floor(value / 1_000);
  if (totalSeconds < 3_600) return pair(Math.floor(totalSeconds / 60), 'min', totalSeconds % 60, 's');
  const totalMinutes = Math.floor(totalSeconds / 60);
  if (totalMinutes < 48 * 60) return pair(Math.floor(totalMinutes / 60), 'h', totalMinutes % 60, 'min');
  const totalHours = Math.floor(totalMinutes / 60);
  const day = locale === 'fr' ? 'j' : 'd';
  return totalHours % 24 === 0 ? `${totalHours / 24}${nbsp}${day}` : `${Math.floor(totalHours / 24)}${nbsp}${day} ${totalHours % 24}${nbsp}h`;
}

/** A run's duration: start to finish, or to now while it runs; null before it starts. */
export function durationMs(startedAt: string | null, finishedAt: string | null, now: number = Date.now()): number | null {
  if (!startedAt) return null;
  const start = Date.parse(startedAt);
  const end = finishedAt ? Date.parse(finishedAt) : now;
  if (!Number.isFinite(start) || !Number.isFinite(end)) return null;
  return Math.max(0, end - start);
}
