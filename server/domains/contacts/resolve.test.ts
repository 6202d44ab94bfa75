import { describe, expect, it } from 'vitest';
import { contactLayers, layerFields, precedence, resolveLayers, type ContactLayer, type LayerStack, type LayerValues } from './resolve';

/** A value of `field` that names its layer, so the winner is read off the answer. */
function valueOf(field: keyof LayerValues, layer: ContactLayer, rank: number): LayerValues[keyof LayerValues] {
  switch (field) {
    case 'formality':
      return rank % 2 ? 'tu' : 'vous';
    case 'tone':
      return (['formal', 'neutral', 'casual'] as const)[rank % 3];
    case 'status':
      return (['customer', 'prospect', 'supplier', 'partner', 'vip', 'blocked'] as const)[rank % 6];
    case 'signature':
      return { id: `00000000-0000-4000-8000-00000000000${rank}`, text: `signature of ${layer}` };
    default:
      return `${field} of ${layer}`;
  }
}

const resolvedField = { formality: 'formality', tone: 'tone', language: 'language', displayName: 'displayName', status: 'status', signature: 'signatureText' } as const;
const scalarFields = Object.keys(resolvedField) as (keyof typeof resolvedField)[];

/** Every layer with every field it carries set. */
function fullStack(): LayerStack {
  return Object.fromEntries(contactLayers.map((layer) => [layer, Object.fromEntries(layerFields[layer].map((field) => [field, valueOf(field, layer, precedence.indexOf(layer))]))]));
}

describe('precedence: the most specific card wins; at equal specificity the member beats the organisation and the mailbox beats the member', () => {
  it('reads the order of the issue', () => {
    expect(precedence).toEqual([
      'member_mailbox_contact',
      'member_contact',
      'shared_contact',
      'member_mailbox_domain',
      'member_domain',
      'shared_domain',
      'member_mailbox_default',
      'member_default',
      'org_default',
    ]);
    expect([...precedence].sort()).toEqual([...contactLayers].sort());
  });

  // The table: for every field and every layer that carries it, with that layer and every layer below it
  // set, the field comes from that layer; remove it and the next carrying layer below gives it.
  const table = scalarFields.flatMap((field) => precedence.filter((layer) => layerFields[layer].includes(field)).map((layer) => [field, layer] as const));

  it.each(table)('%s comes from %s when it is the highest layer that sets it', (field, layer) => {
    const rank = precedence.indexOf(layer);
    const stack = fullStack();
    for (const higher of precedence.slice(0, rank)) stack[higher] = { ...stack[higher], [field]: null };
    const { resolved, sources } = resolveLayers(stack);
    const expected = valueOf(field, layer, rank);
    expect(resolved[resolvedField[field]]).toEqual(field === 'signature' ? (expected as { text: string }).text : expected);
    expect(sources[resolvedField[field] as keyof typeof sources]).toBe(layer);
    if (field === 'signature') expect(resolved.signatureId).toBe((expected as { id: string }).id);
  });

  it.each(scalarFields)('%s is null with a null source when no layer sets it', (field) => {
    const stack = fullStack();
    for (const layer of contactLayers) stack[layer] = { ...stack[layer], [field]: null };
    const { resolved, sources } = resolveLayers(stack);
    expect(resolved[resolvedField[field]]).toBeNull();
    expect(sources[resolvedField[field] as keyof typeof sources]).toBeNull();
  });

  it.each(contactLayers.flatMap((layer) => scalarFields.filter((field) => !layerFields[layer].includes(field)).map((field) => [layer, field] as const)))(
    '%s cannot give %s (a field its cards do not have)',
    (layer, field) => {
      const { resolved, sources } = resolveLayers({ [layer]: { [field]: valueOf(field, layer, 1) } });
      expect(resolved[resolvedField[field]]).toBeNull();
      expect(sources[resolvedField[field] as keyof typeof sources]).toBeNull();
    },
  );

  it('an empty string sets nothing', () => {
    const { resolved, sources } = resolveLayers({ member_contact: { language: '' }, shared_contact: { language: 'fr' } });
    expect(resolved.language).toBe('fr');
    expect(sources.language).toBe('shared_contact');
  });
});

describe('notes accumulate from every layer that has some, most specific first', () => {
  it('all nine layers', () => {
    const { resolved, sources } = resolveLayers(fullStack());
    expect(sources.notes).toEqual(precedence);
    expect(resolved.notes).toEqual(precedence.map((layer) => `notes of ${layer}`));
  });

  it.each(contactLayers)('a note of %s alone', (layer) => {
    const { resolved, sources } = resolveLayers({ [layer]: { notes: 'only' } });
    expect(resolved.notes).toEqual(['only']);
    expect(sources.notes).toEqual([layer]);
  });

  it('layers without notes are skipped', () => {
    const { sources } = resolveLayers({ org_default: { notes: 'a' }, member_contact: { notes: null }, shared_domain: { notes: 'b' } });
    expect(sources.notes).toEqual(['shared_domain', 'org_default']);
  });
});

describe('a realistic stack', () => {
  it('a formal customer domain, a member who tutoies one person of it, a mailbox default signature', () => {
    const { resolved, sources } = resolveLayers({
      org_default: { formality: 'vous', tone: 'formal', language: 'fr' },
      shared_domain: { displayName: 'Acme', status: 'customer', notes: 'Key account' },
      member_mailbox_default: { signature: { id: '00000000-0000-4000-8000-000000000001', text: '-- Sales' } },
      member_contact: { formality: 'tu', tone: 'casual', notes: 'Met at the fair' },
    });
    expect(resolved).toEqual({
      formality: 'tu',
      tone: 'casual',
      language: 'fr',
      displayName: 'Acme',
      signatureText: '-- Sales',
      signatureId: '00000000-0000-4000-8000-000000000001',
      status: 'customer',
      notes: ['Met at the fair', 'Key account'],
    });
    expect(sources).toEqual({
      formality: 'member_contact',
      tone: 'member_contact',
      language: 'org_default',
      displayName: 'shared_domain',
      signatureText: 'member_mailbox_default',
      status: 'shared_domain',
      notes: ['member_contact', 'shared_domain'],
    });
  });
});
