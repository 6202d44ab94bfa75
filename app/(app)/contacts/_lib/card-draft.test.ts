/**
 * A card's form → the PUT body: every field of the layer present (PUT replaces), emptied ones null,
 * bodies the route's schema accepts; the language check agrees with the schema's; the UI's signature
 * limit is the server's.
 */
import { describe, expect, it } from 'vitest';
import { putContactInput } from '@/server/domains/contacts/schemas';
import { signaturesPerMember } from '@/server/domains/contacts/signatures';
import { signatureLimit } from '../_components/signatures-editor';
import { emptyMemberDraft, languageOk, memberBody, memberDraftOf, sharedBody, sharedDraftOf, storedValue } from './card-draft';

describe('card drafts', () => {
  it('writes the whole shared card, emptied fields as null, in a body the route accepts', () => {
    const body = sharedBody('domain', 'acme.example', { displayName: ' ACME ', status: 'vip', language: '', orgNotes: '' });
    expect(body).toEqual({ kind: 'domain', value: 'acme.example', layer: 'shared', displayName: 'ACME', status: 'vip', language: null, orgNotes: null });
    expect(putContactInput.safeParse(body).success).toBe(true);
  });

  it('writes the member’s card, with the mailbox only when given', () => {
    const draft = { ...emptyMemberDraft, formality: 'tu' as const, tone: 'casual' as const, language: 'fr-FR' };
    const global = memberBody('contact', 'jo@acme.example', draft);
    expect(global).not.toHaveProperty('mailboxId');
    expect(global).toMatchObject({ layer: 'member', formality: 'tu', tone: 'casual', language: 'fr-FR', signatureId: null, personalNotes: null });
    const mailbox = memberBody('contact', 'jo@acme.example', draft, 'mailbox-1');
    expect(mailbox.mailboxId).toBe('mailbox-1');
    expect(putContactInput.safeParse(global).success).toBe(true);
  });

  it('reads a stored card back into the form', () => {
    expect(sharedDraftOf(null)).toEqual({ displayName: '', status: '', language: '', orgNotes: '' });
    expect(memberDraftOf({ formality: 'vous', tone: null, language: 'de', signatureId: null, personalNotes: 'n' })).toEqual({
      formality: 'vous',
      tone: '',
      language: 'de',
      signatureId: '',
      personalNotes: 'n',
    });
  });

  it('checks a language as the route does', () => {
    for (const language of ['', 'fr', 'en-GB', 'zh-Hant-TW', 'english', 'f', 'fr_FR', 'fr-', '12']) {
      const accepted = putContactInput.safeParse({ kind: 'domain', value: 'a.example', layer: 'shared', language: language === '' ? null : language }).success;
      expect(languageOk(language), language).toBe(accepted);
    }
  });

  it('previews the stored form of a value, or nothing while it is not one', () => {
    expect(storedValue('domain', '@Bücher.Example.')).toBe('xn--bcher-kva.example');
    expect(storedValue('contact', ' Jo@ACME.example ')).toBe('jo@acme.example');
    expect(storedValue('contact', 'not an address')).toBeNull();
    expect(storedValue('domain', '')).toBeNull();
  });

  it('keeps the UI’s signature limit equal to the server’s', () => {
    expect(signatureLimit).toBe(signaturesPerMember);
  });
});
