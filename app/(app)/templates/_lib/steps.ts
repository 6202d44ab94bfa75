/** A template card's steps in words (issue 19 §2: a card never shows `logic.if@1`). */

/** Node type labels in the member's language, by `type@version` (what a template's `nodeTypes` lists). */
export type NodeTypeLabels = ReadonlyMap<string, string>;

/** The steps of a template in words, each once; a type without a label yet (still loading) is left out, never shown raw. */
export function stepLabels(nodeTypes: readonly string[], labels: NodeTypeLabels): string[] {
  return [...new Set(nodeTypes.map((nodeType) => labels.get(nodeType)).filter((label): label is string => label !== undefined))];
}
