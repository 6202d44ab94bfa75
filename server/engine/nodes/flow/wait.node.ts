/**
 * Wait: suspends the run for a duration or until a date (the execution is `waiting`: no slot, no
 * working time), then passes its input on. The longest wait is the engine's (30 days).
 */
import { z } from 'zod';
import { defineNode } from '../../contract/define-node';
import { fail } from '../../contract/failures';
import { engineBounds } from '../../contract/limits';

const unitMs = { seconds: 1_000, minutes: 60_000, hours: 3_600_000, days: 86_400_000 } as const;

export const waitNode = defineNode({
  type: 'flow.wait',
  version: 1,
  category: 'flow',
  label: { en: 'Wait', fr: 'Attendre' },
  description: {
    en: 'Pauses the run for a duration or until a date (at most 30 days); waiting does not count as working time.',
    fr: 'Met l’exécution en pause pour une durée ou jusqu’à une date (30 jours au plus) ; l’attente ne compte pas comme temps de travail.',
  },
  params: z.discriminatedUnion('mode', [
    z.strictObject({
      mode: z.literal('duration').describe('Wait for a duration.'),
      amount: z.number().int().min(1).max(1_000_000).describe('How many units to wait.'),
      unit: z.enum(['seconds', 'minutes', 'hours', 'days']).describe('The unit of `amount`.'),
    }),
    z.strictObject({
      mode: z.literal('until').describe('Wait until a date.'),
      until: z.string().min(1).max(100).describe('The date and time to continue at (ISO 8601 with an offset, or an expression).'),
    }),
  ]),
  outputs: ['main'],
  effect: 'none',
  requires: [],
  persistsStepFirst: true,
  scopes: [],
  async execute({ params, input, resume, state, now }) {
    if (resume?.reason === 'timer') return { data: input.main ?? {} };
    const current = now().getTime();
    let until: number;
    if (params.mode === 'duration') {
      until = current + params.amount * unitMs[params.unit];
    } else {
      until = Date.parse(params.until);
      if (Number.isNaN(until)) throw fail.permanent('invalid_parameter', { message: 'params.until is not a date.', details: { path: 'params.until' } });
    }
    if (until - current > engineBounds.waitMs.max) {
      throw fail.permanent('invalid_parameter', { message: 'A wait lasts at most 30 days.', details: { path: params.mode === 'duration' ? 'params.amount' : 'params.until' } });
    }
    if (until <= current) return { data: input.main ?? {} };
    return { kind: 'suspend', mode: 'waiting', until: new Date(until), state: state ?? { until: new Date(until).toISOString() } };
  },
});
