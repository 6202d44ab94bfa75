/** Sections of the application. Those without a page of their own yet show a placeholder. */
import type { Dictionary } from '@/app/i18n';

export type SectionKey = keyof Dictionary['sections'];

/** Sections served by the `[section]` placeholder route until each gets its real page. */
export const placeholderSections = [
  'contacts',
] as const satisfies readonly SectionKey[];

export function isPlaceholderSection(value: string): value is (typeof placeholderSections)[number] {
  return (placeholderSections as readonly string[]).includes(value);
}
