/**
 * The AI classification a workflow's ai.classify step wrote on a message (`classification.ai`:
 * {label, confidence, nodeId, executionId}), as the webmail shows it; anything else there is not ours
 * to show (the classification object is free-form).
 */
export interface AiClassification {
  label: string;
  /** From 0 to 1, or null when the value is missing or out of range. */
  confidence: number | null;
}

export function aiClassificationOf(classification: unknown): AiClassification | null {
  if (!classification || typeof classification !== 'object' || Array.isArray(classification)) return null;
  const ai = Object.hasOwn(classification, 'ai') ? (classification as Record<string, unknown>).ai : undefined;
  if (!ai || typeof ai !== 'object' || Array.isArray(ai)) return null;
  const { label, confidence } = ai as Record<string, unknown>;
  if (typeof label !== 'string' || label.trim() === '') return null;
  const valid = typeof confidence === 'number' && Number.isFinite(confidence) && confidence >= 0 && confidence <= 1;
  return { label: label.slice(0, 64), confidence: valid ? confidence : null };
}

/** A confidence as a whole percentage (0.92 → 92). */
export function confidencePercent(confidence: number): number {
  return Math.round(confidence * 100);
}
