/**
 * The one effect store (execution_effects): every effect a step makes outside its run is recorded
 * under `<executionId>:<nodeId>:<key>`, stable across the step's attempts. A repeat finding the
 * record done answers the first result without acting again. A record claimed but never completed
 * (the attempt was cut off while acting) is acted again: the capabilities behind keyed effects are
 * themselves idempotent under the same key (a mail operation's client token, a table write's effect
 * key, a signal's uniqueness), so the effect still happens at most once.
 *
 * Replay from the start runs under a new execution id, so its effects happen again; replay from the
 * failed step copies the steps that succeeded, so theirs do not (spec, effects table).
 */
import { db } from '../../core/db';
import type { EffectRecord, KeyedEffect } from '../contract/capabilities';

export function effectKeyOf(executionId: string, nodeId: string, key: string): string {
  return `${executionId}:${nodeId}:${key}`;
}

export interface EffectLedger {
  effect: KeyedEffect;
  /** The effects this attempt made or recognised, for the step's `effects`. */
  recorded: EffectRecord[];
}

export function effectLedger(run: { executionId: string; nodeId: string; simulated: boolean }): EffectLedger {
  const recorded: EffectRecord[] = [];
  const effect: KeyedEffect = async (spec, perform, simulated) => {
    if (run.simulated) {
      recorded.push({ kind: spec.kind, description: spec.description, simulated: true });
      return simulated();
    }
    const effectKey = effectKeyOf(run.executionId, run.nodeId, spec.key);
    const existing = await db().executionEffect.findUnique({ where: { effectKey } });
    if (existing?.status === 'done') {
      recorded.push({ kind: spec.kind, description: spec.description });
      return existing.result as Awaited<ReturnType<typeof perform>>;
    }
    if (!existing) {
      await db().executionEffect.createMany({
        data: [{ effectKey, executionId: run.executionId, nodeId: run.nodeId, kind: spec.kind, description: spec.description.slice(0, 500) }],
        skipDuplicates: true,
      });
    }
    const result = await perform();
    await db().executionEffect.update({
      where: { effectKey },
      data: { status: 'done', result: (result ?? null) as object, doneAt: new Date() },
    });
    recorded.push({ kind: spec.kind, description: spec.description });
    return result;
  };
  return { effect, recorded };
}
