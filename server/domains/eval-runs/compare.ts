/**
 * What one case did, and whether two outcomes differ: the trigger decision, the path (node ids in
 * order), the effects (kind and description, in order) or the error code. Pure.
 */
export interface CaseOutcome {
  triggered: boolean;
  path: string[];
  effects: { kind: string; description: string }[];
  error: { code: string; message: string; nodeId?: string } | null;
}

export const notTriggered: CaseOutcome = { triggered: false, path: [], effects: [], error: null };

export function outcomesDiffer(a: CaseOutcome, b: CaseOutcome | null): boolean {
  if (!b) return false;
  if (a.triggered !== b.triggered) return true;
  if (a.path.length !== b.path.length || a.path.some((nodeId, index) => nodeId !== b.path[index])) return true;
  if (a.effects.length !== b.effects.length) return true;
  if (a.effects.some((effect, index) => effect.kind !== b.effects[index].kind || effect.description !== b.effects[index].description)) return true;
  return (a.error?.code ?? null) !== (b.error?.code ?? null);
}
