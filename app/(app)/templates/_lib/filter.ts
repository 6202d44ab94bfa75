/**
 * The gallery's filters, client-side (the list is whole): a category chip (`all`, a category, or
 * `none` for templates without one) and a search over name and description, case- and
 * accent-insensitive.
 */
import { templateCategories } from '@/server/domains/templates/schemas';

export type CategoryFilter = 'all' | 'none' | (typeof templateCategories)[number] | (string & {});

interface Filterable {
  name: string;
  description: string;
  category: string | null;
}

/** Lower case without diacritics: "Résumé" finds "resume". */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}

export function filterTemplates<T extends Filterable>(templates: readonly T[], filters: { query: string; category: CategoryFilter }): T[] {
  const words = foldText(filters.query.slice(0, 200)).split(/\s+/).filter(Boolean);
  return templates.filter((template) => {
    if (filters.category !== 'all' && (template.category ?? 'none') !== filters.category) return false;
    if (words.length === 0) return true;
    const haystack = foldText(`${template.name} ${template.description}`);
    return words.every((word) => haystack.includes(word));
  });
}

/** The chips to show: the categories present, in the catalogue's order, then `none` when some template has no category. */
export function categoriesOf(templates: readonly Filterable[]): string[] {
  const present = new Set(templates.map((template) => template.category ?? 'none'));
  const known: string[] = templateCategories.filter((category) => present.has(category));
  const unknown = [...present].filter((category) => category !== 'none' && !(templateCategories as readonly string[]).includes(category)).sort();
  return [...known, ...unknown, ...(present.has('none') ? ['none'] : [])];
}
