/**
 * The real names people read for the providers the API names neutrally (the spec's `mail_provider_a`,
 * `ai_vendor_a`, …; the README maps them). The one place that mapping lives in the interface: the i18n
 * dictionaries and the components take their provider labels from here. Brand names are not
 * translated; the generic entries (IMAP/SMTP, a compatible server) stay in the dictionaries.
 */
export const providerNames = {
  mail_provider_a: 'Google',
  mail_provider_b: 'Microsoft 365',
  oauth_provider_a: 'Google',
  oauth_provider_b: 'Microsoft 365',
  // Credential types of the OAuth grants (Settings → Connections).
  mail_provider_a_oauth: 'Google',
  mail_provider_b_oauth: 'Microsoft 365',
  ai_vendor_a: 'OpenAI',
  ai_vendor_b: 'Anthropic',
  ai_vendor_c: 'Google Gemini',
  ai_vendor_d: 'Mistral',
  ai_vendor_e: 'Groq',
  // The local runtime is reached through Ollama's API (server/core/ai/language-model.ts).
  ai_local: 'Ollama',
} as const;

export type NamedProvider = keyof typeof providerNames;

/** The real name of a neutral provider value, or `undefined` when it has none (imap, http_generic, …). */
export function realProviderName(value: string): string | undefined {
  return Object.hasOwn(providerNames, value) ? providerNames[value as NamedProvider] : undefined;
}
