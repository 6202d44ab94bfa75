/** Sections of the application. Those without a page of their own yet show a placeholder. */
import type { Dictionary } from '@/app/i18n';

export type SectionKey = keyof Dictionary['sections'];

/**
 * Sections served by the `[section]` placeholder route until each gets its real page. None today (the
 * last one, contacts, became the address book in issue 22); the route stays for the next section
 * announced in the navigation before its page exists.
 */
export const placeholderSections: readonly SectionKey[] = [];

export function isPlaceholderSection(value: string): value is SectionKey {
  return (placeholderSections as readonly string[]).includes(value);
}
