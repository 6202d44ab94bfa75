/**
 * The trace in words: every one of the nine layers has its own sentence in both languages, each field's
 * row names the layer that gave it (or says none does), and notes keep the layer they came from.
 */
import { describe, expect, it } from 'vitest';
import { en } from '@/app/i18n/en';
import { fr } from '@/app/i18n/fr';
import { contactLayers } from '@/server/domains/contacts/resolve';
import { resolvedSchema, sourcesSchema } from '@/server/domains/contacts/schemas';
import { traceNotes, traceRows, tracedFields } from './trace';

const resolution = {
  resolved: { formality: 'tu', tone: 'casual', language: 'fr', displayName: 'ACME', signatureText: 'Sam', signatureId: null, status: 'vip', notes: ['Pays late', 'Big account'] },
  sources: {
    formality: 'member_contact',
    tone: 'member_contact',
    language: 'shared_domain',
    displayName: 'shared_domain',
    signatureText: 'member_mailbox_default',
    status: 'shared_domain',
    notes: ['member_contact', 'shared_domain'],
  },
} as const;

describe('the resolution trace in words', () => {
  it('says each of the nine layers in its own words, in English and in French', () => {
    for (const dictionary of [en, fr]) {
      const words = contactLayers.map((layer) => dictionary.contacts.trace.layers[layer]);
      expect(words.every((text) => text.length > 0)).toBe(true);
      expect(new Set(words).size).toBe(contactLayers.length);
    }
  });

  it('traces exactly the fields the API gives a source for', () => {
    const sourced = Object.keys(sourcesSchema.shape).filter((key) => key !== 'notes');
    expect([...tracedFields].sort()).toEqual(sourced.sort());
    expect(tracedFields.every((field) => field in resolvedSchema.shape)).toBe(true);
  });

  it('gives each field its value and the layer that set it', () => {
    const rows = traceRows(resolution, en.contacts);
    const byField = Object.fromEntries(rows.map((row) => [row.field, row]));
    expect(byField.formality).toMatchObject({ value: 'Tu (familiar)', layer: 'member_contact', source: 'from your card for this address' });
    expect(byField.status).toMatchObject({ value: 'VIP', source: 'from the organisation’s card for the domain' });
    expect(byField.signatureText).toMatchObject({ value: 'Sam', source: 'from your defaults for this mailbox' });
  });

  it('says when no layer sets a field', () => {
    const none = { resolved: { ...resolution.resolved, tone: null }, sources: { ...resolution.sources, tone: null } };
    const tone = traceRows(none, fr.contacts).find((row) => row.field === 'tone');
    expect(tone).toMatchObject({ value: null, layer: null, source: fr.contacts.trace.noSource });
  });

  it('keeps each note with its layer', () => {
    expect(traceNotes(resolution, en.contacts)).toEqual([
      { text: 'Pays late', layer: 'member_contact', source: 'from your card for this address' },
      { text: 'Big account', layer: 'shared_domain', source: 'from the organisation’s card for the domain' },
    ]);
  });
});
