/**
 * The reader's preferences the API reference page follows, read as the application reads them. Language:
 * the one asked for in the address (`?lang=`, what the page's switch sets), else the one the member picked
 * in the application (its cookie), else the browser's languages (French when French ranks above English,
 * otherwise English). Theme: the member's choice in the application (its cookie), else the browser's. Pure.
 */
import { readCookie } from '../../core/auth/authenticate';

export type ReferenceLanguage = 'en' | 'fr';

/** The application's language cookie (app/i18n/index.ts `localeCookie`): the interface's choice holds here too. */
const localeCookie = 'mailflow-locale';

function isReferenceLanguage(value: unknown): value is ReferenceLanguage {
  return value === 'en' || value === 'fr';
}

/** English or French from Accept-Language, quality values honoured (ties keep the header's order); English when neither is named. */
export function languageFromAcceptLanguage(header: string | null): ReferenceLanguage {
  if (!header) return 'en';
  const ranked = header
    .slice(0, 1_000)
    .split(',')
    .map((part, index) => {
      const [tag, ...parameters] = part.trim().split(';');
      const quality = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith('q='));
      const value = quality ? Number(quality.slice(2)) : 1;
      return { language: tag.trim().toLowerCase().split('-')[0], quality: Number.isFinite(value) ? value : 0, index };
    })
    .filter((entry) => entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return ranked.map((entry) => entry.language).find(isReferenceLanguage) ?? 'en';
}

export function referenceLanguage(input: { requested: ReferenceLanguage | undefined; cookieHeader: string | null; acceptLanguage: string | null }): ReferenceLanguage {
  if (input.requested) return input.requested;
  const stored = readCookie(input.cookieHeader, localeCookie);
  if (isReferenceLanguage(stored)) return stored;
  return languageFromAcceptLanguage(input.acceptLanguage);
}

/** The application's theme cookie (app/lib/theme.ts `themeCookie`): `light` or `dark` forces one, anything else follows the browser. */
const themeCookie = 'theme';

export function referenceTheme(cookieHeader: string | null): 'light' | 'dark' | null {
  const stored = readCookie(cookieHeader, themeCookie);
  return stored === 'light' || stored === 'dark' ? stored : null;
}
