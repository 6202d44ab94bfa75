/**
 * Schedule trigger (beyond the spec): starts the workflow on a five-field cron expression read in an
 * IANA time zone. The runner's `workflow-schedules` task starts due runs (server/engine/dispatch/schedules.ts).
 */
import { CronExpressionParser } from 'cron-parser';
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';

/** Whether `cron` is a valid five-field expression (minute hour day-of-month month day-of-week). */
export function isValidCron(cron: string): boolean {
  if (cron.trim().split(/\s+/).length !== 5) return false;
  try {
    CronExpressionParser.parse(cron, { tz: 'UTC' });
    return true;
  } catch {
    return false;
  }
}

export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The first time the schedule fires strictly after `after`. */
export function nextRunOf(cron: string, timeZone: string, after: Date): Date {
  return CronExpressionParser.parse(cron, { tz: timeZone, currentDate: after }).next().toDate();
}

export const scheduleTriggerParams = z.strictObject({
  cron: z.string().trim().min(9).max(120).refine(isValidCron, { message: 'A five-field cron expression (minute hour day-of-month month day-of-week).' }),
  timeZone: z.string().min(1).max(64).default('UTC').refine(isValidTimeZone, { message: 'An IANA time zone, e.g. Europe/Paris.' }),
});

export const scheduleTriggerNode = defineNode({
  type: 'trigger.schedule',
  version: 1,
  category: 'trigger',
  trigger: 'schedule',
  label: { en: 'Schedule', fr: 'Planification' },
  description: {
    en: 'Starts the workflow on a schedule: a five-field cron expression (minute hour day-of-month month day-of-week) read in the chosen time zone. The data is `{firedAt}`.',
    fr: 'Démarre le workflow selon une planification : une expression cron à cinq champs (minute heure jour-du-mois mois jour-de-la-semaine) lue dans le fuseau horaire choisi. Les données sont `{firedAt}`.',
  },
  params: scheduleTriggerParams,
  output: z.strictObject({ firedAt: z.string().describe('When the schedule fired (ISO 8601).') }),
  outputs: ['main'],
  effect: 'none',
  requires: [],
  scopes: [],
  async execute({ trigger, now }) {
    const firedAt = typeof trigger?.firedAt === 'string' ? trigger.firedAt : now().toISOString();
    return { data: { firedAt } };
  },
});
