/** Whether a field's counter shows: from 90 % of its bound on (a counter everywhere would be noise). */
export function nearLimit(length: number, max: number): boolean {
  return length >= Math.floor(max * 0.9);
}

/** The client-side check of a member's text, as the server checks it (trimmed, 1..max). */
export function textProblem(value: string, max: number): 'required' | 'tooLong' | null {
  const trimmed = value.trim();
  if (trimmed.length === 0) return 'required';
  if (trimmed.length > max) return 'tooLong';
  return null;
}
