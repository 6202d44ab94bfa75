/** The tables a stored template needs: a starter template's, from the shipped catalogue by its slug. */
import { starterTemplates } from './starter';
import type { TemplateTable } from './table-requirements';

const bySlug = new Map(starterTemplates.map((template) => [template.slug, template.tables ?? []]));

export function starterTablesOf(slug: string | null): TemplateTable[] {
  return slug === null ? [] : (bySlug.get(slug) ?? []);
}
