/**
 * The resolution's trace in words: each field with its value and the layer that gave it, and the notes
 * with theirs. Pure (a test reads it without a browser); the view only lays the rows out.
 */
import type { Dictionary } from '@/app/i18n';
import type { ContactLayer } from '@/server/domains/contacts/resolve';

/** The fields `resolved` and `sources` share, in the order a person reads them. */
export const tracedFields = ['displayName', 'status', 'formality', 'tone', 'language', 'signatureText'] as const;
export type TracedField = (typeof tracedFields)[number];

interface Resolution {
  resolved: {
    formality: 'tu' | 'vous' | null;
    tone: 'formal' | 'neutral' | 'casual' | null;
    language: string | null;
    displayName: string | null;
    signatureText: string | null;
    signatureId: string | null;
    status: 'customer' | 'prospect' | 'supplier' | 'partner' | 'vip' | 'blocked' | null;
    notes: readonly string[];
  };
  sources: Record<TracedField, ContactLayer | null> & { notes: readonly ContactLayer[] };
}

export interface TraceRow {
  field: TracedField;
  label: string;
  /** The value as a person reads it, or null when no layer sets it. */
  value: string | null;
  layer: ContactLayer | null;
  /** "from your card for this mailbox", or that no layer sets it. */
  source: string;
}

function valueText(field: TracedField, resolution: Resolution, c: Dictionary['contacts']): string | null {
  const { resolved } = resolution;
  switch (field) {
    case 'formality':
      return resolved.formality ? c.formalities[resolved.formality] : null;
    case 'tone':
      return resolved.tone ? c.tones[resolved.tone] : null;
    case 'status':
      return resolved.status ? c.statuses[resolved.status] : null;
    case 'displayName':
    case 'language':
    case 'signatureText':
      return resolved[field] || null;
  }
}

export function traceRows(resolution: Resolution, c: Dictionary['contacts']): TraceRow[] {
  return tracedFields.map((field) => {
    const layer = resolution.sources[field];
    return { field, label: c.trace.fields[field], value: valueText(field, resolution, c), layer, source: layer ? c.trace.layers[layer] : c.trace.noSource };
  });
}

/**
 * The notes with the layer each came from. `resolved.notes` and `sources.notes` are parallel lists (one
 * note per layer that has some, most specific first); a shorter list of layers leaves a note unattributed.
 */
export function traceNotes(resolution: Resolution, c: Dictionary['contacts']): { text: string; layer: ContactLayer | null; source: string | null }[] {
  return resolution.resolved.notes.map((text, index) => {
    const layer = resolution.sources.notes[index] ?? null;
    return { text, layer, source: layer ? c.trace.layers[layer] : null };
  });
}
