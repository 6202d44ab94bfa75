/**
 * The resolution of an address book entry: nine layers, one value per field from the most specific
 * layer that sets it, notes gathered from every layer that has some. Pure: the caller loads the
 * layers (resolution.ts) and hands them in.
 *
 * Precedence (highest first; the spec gives the layers, not their order): the most specific card wins
 * (an address's card over its domain's, a domain's over the defaults); at equal specificity the
 * member's own choice beats the organisation's, and a mailbox's beats the member's global one. So a
 * member who tutoies one person of a formal customer domain gets `tu` for that person only, and a
 * shared card never overrides what a member chose for themselves.
 */

export const contactLayers = [
  'org_default',
  'shared_domain',
  'shared_contact',
  'member_default',
  'member_mailbox_default',
  'member_domain',
  'member_contact',
  'member_mailbox_domain',
  'member_mailbox_contact',
] as const;
export type ContactLayer = (typeof contactLayers)[number];

/** Highest first. */
export const precedence: readonly ContactLayer[] = [
  'member_mailbox_contact',
  'member_contact',
  'shared_contact',
  'member_mailbox_domain',
  'member_domain',
  'shared_domain',
  'member_mailbox_default',
  'member_default',
  'org_default',
];

export const formalities = ['tu', 'vous'] as const;
export const tones = ['formal', 'neutral', 'casual'] as const;
/** The shared card's status (the spec leaves it open): a short closed list a workflow can branch on. */
export const contactStatuses = ['customer', 'prospect', 'supplier', 'partner', 'vip', 'blocked'] as const;

export type Formality = (typeof formalities)[number];
export type Tone = (typeof tones)[number];
export type ContactStatus = (typeof contactStatuses)[number];

/** What one layer says; a field it cannot carry or leaves unset is absent or null. */
export interface LayerValues {
  formality?: Formality | null;
  tone?: Tone | null;
  language?: string | null;
  displayName?: string | null;
  status?: ContactStatus | null;
  signature?: { id: string; text: string } | null;
  notes?: string | null;
}

/** The fields each layer can carry (the cards' and defaults' columns): the resolution reads no other. */
export const layerFields: Record<ContactLayer, readonly (keyof LayerValues)[]> = {
  org_default: ['formality', 'tone', 'language', 'notes'],
  shared_domain: ['displayName', 'language', 'status', 'notes'],
  shared_contact: ['displayName', 'language', 'status', 'notes'],
  member_default: ['formality', 'tone', 'language', 'signature', 'notes'],
  member_mailbox_default: ['formality', 'tone', 'language', 'signature', 'notes'],
  member_domain: ['formality', 'tone', 'language', 'signature', 'notes'],
  member_contact: ['formality', 'tone', 'language', 'signature', 'notes'],
  member_mailbox_domain: ['formality', 'tone', 'language', 'signature', 'notes'],
  member_mailbox_contact: ['formality', 'tone', 'language', 'signature', 'notes'],
};

export type LayerStack = Partial<Record<ContactLayer, LayerValues | null>>;

export interface Resolved {
  formality: Formality | null;
  tone: Tone | null;
  language: string | null;
  displayName: string | null;
  signatureText: string | null;
  signatureId: string | null;
  status: ContactStatus | null;
  notes: string[];
}

export interface Sources {
  formality: ContactLayer | null;
  tone: ContactLayer | null;
  language: ContactLayer | null;
  displayName: ContactLayer | null;
  signatureText: ContactLayer | null;
  status: ContactLayer | null;
  notes: ContactLayer[];
}

const present = (value: unknown) => value !== null && value !== undefined && value !== '';

/** The value of one field and the layer that gave it: the first layer in precedence that carries and sets it. */
function pick<K extends keyof LayerValues>(stack: LayerStack, field: K): { value: NonNullable<LayerValues[K]> | null; layer: ContactLayer | null } {
  for (const layer of precedence) {
    const values = stack[layer];
    if (!values || !layerFields[layer].includes(field)) continue;
    const value = values[field];
    if (present(value)) return { value: value as NonNullable<LayerValues[K]>, layer };
  }
  return { value: null, layer: null };
}

export function resolveLayers(stack: LayerStack): { resolved: Resolved; sources: Sources } {
  const formality = pick(stack, 'formality');
  const tone = pick(stack, 'tone');
  const language = pick(stack, 'language');
  const displayName = pick(stack, 'displayName');
  const status = pick(stack, 'status');
  const signature = pick(stack, 'signature');
  const notes: string[] = [];
  const noteLayers: ContactLayer[] = [];
  for (const layer of precedence) {
    const text = stack[layer]?.notes;
    if (present(text) && layerFields[layer].includes('notes')) {
      notes.push(text as string);
      noteLayers.push(layer);
    }
  }
  return {
    resolved: {
      formality: formality.value,
      tone: tone.value,
      language: language.value,
      displayName: displayName.value,
      signatureText: signature.value?.text ?? null,
      signatureId: signature.value?.id ?? null,
      status: status.value,
      notes,
    },
    sources: {
      formality: formality.layer,
      tone: tone.layer,
      language: language.layer,
      displayName: displayName.layer,
      signatureText: signature.layer,
      status: status.layer,
      notes: noteLayers,
    },
  };
}
