/** Locales of the interface and the choice of one from a stored preference or the browser's languages. */
import { en, type Dictionary } from './en';
import { fr } from './fr';

export type { Dictionary };

export const locales = ['en', 'fr'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'en';

/** Cookie holding the member's explicit choice; without it the browser's Accept-Language decides. */
export const localeCookie = 'mailflow-locale';

export const dictionaries: Record<Locale, Dictionary> = { en, fr };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (locales as readonly string[]).includes(value);
}

/** Best supported locale from an Accept-Language header (quality values honoured), else English. */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale {
  if (!acceptLanguage) return defaultLocale;
  const ranked = acceptLanguage
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { language: tag.toLowerCase().split('-')[0], quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return ranked.map((entry) => entry.language).find(isLocale) ?? defaultLocale;
}
