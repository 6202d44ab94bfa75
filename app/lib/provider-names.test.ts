/**
 * People read the providers' real names (issue 19 §7); the API keeps the spec's neutral values.
 */
import { describe, expect, it } from 'vitest';
import { en } from '@/app/i18n/en';
import { fr } from '@/app/i18n/fr';
import { providerNames, realProviderName } from './provider-names';

/** Every string of a dictionary, however deeply nested (functions called with a sample argument). */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'function') {
    try {
      const result: unknown = (value as (...args: unknown[]) => unknown)('x', 'y', 'z');
      if (typeof result === 'string') out.push(result);
    } catch {
      // A function needing structured arguments renders no provider name.
    }
  } else if (value && typeof value === 'object') for (const item of Object.values(value)) stringsOf(item, out);
  return out;
}

describe('real provider names in the interface', () => {
  it('maps the neutral values to the names the README gives them', () => {
    expect(providerNames).toMatchObject({
      mail_provider_a: 'Google',
      mail_provider_b: 'Microsoft 365',
      oauth_provider_a: 'Google',
      oauth_provider_b: 'Microsoft 365',
      ai_vendor_a: 'OpenAI',
      ai_vendor_b: 'Anthropic',
      ai_vendor_c: 'Google Gemini',
      ai_vendor_d: 'Mistral',
      ai_vendor_e: 'Groq',
      ai_local: 'Ollama',
    });
    expect(realProviderName('imap')).toBeUndefined();
    expect(realProviderName('toString')).toBeUndefined();
  });

  for (const [locale, t] of [['en', en], ['fr', fr]] as const) {
    it(`${locale}: mail, OAuth and AI provider labels are the real names`, () => {
      expect(t.mailboxes.providers.mail_provider_a).toBe('Google');
      expect(t.mailboxes.providers.mail_provider_b).toBe('Microsoft 365');
      expect(t.mailboxes.oauthConnect.oauth_provider_a).toContain('Google');
      expect(t.mailboxes.oauthConnect.oauth_provider_b).toContain('Microsoft 365');
      expect(t.oauthProviderNames).toEqual({ oauth_provider_a: 'Google', oauth_provider_b: 'Microsoft 365' });
      for (const vendor of ['ai_vendor_a', 'ai_vendor_b', 'ai_vendor_c', 'ai_vendor_d', 'ai_vendor_e', 'ai_local'] as const) {
        expect(t.aiAdmin.providers[vendor]).toBe(providerNames[vendor]);
      }
    });

    it(`${locale}: no text says "Provider A", "Vendor A" or "Fournisseur A"`, () => {
      const placeholders = stringsOf(t).filter((text) => /\b([Pp]rovider|[Vv]endor|[Ff]ournisseur) [A-E]\b/.test(text));
      expect(placeholders).toEqual([]);
    });
  }
});
