/**
 * What a step keeps of its data: JSON-safe and bounded, so one huge HTTP answer cannot bloat the
 * execution rows or the detail page. Above the bound the data is replaced by a preview and
 * `dataTruncated` is set; the run itself went on with the whole value.
 */
export const stepDataMaxBytes = 256 * 1024;

export function boundStepData(data: unknown): { data: unknown; dataTruncated: boolean } {
  if (data === undefined) return { data: null, dataTruncated: false };
  let text: string;
  try {
    text = JSON.stringify(data) ?? 'null';
  } catch {
    return { data: { note: 'The data could not be stored (not JSON).' }, dataTruncated: true };
  }
  if (Buffer.byteLength(text) <= stepDataMaxBytes) return { data: JSON.parse(text) as unknown, dataTruncated: false };
  return { data: { preview: text.slice(0, 4_096), bytes: Buffer.byteLength(text) }, dataTruncated: true };
}

/** Data wrapped as an object (spec: step data is a free object or null). */
export function asStepObject(data: unknown): Record<string, unknown> | null {
  if (data === null || data === undefined) return null;
  if (typeof data === 'object' && !Array.isArray(data)) return data as Record<string, unknown>;
  return { value: data };
}
