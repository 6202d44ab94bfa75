'use client';

/** The fields a template is described by (name, description, category), shared by "save as template" and "edit". */
import { useI18n } from '@/app/i18n/client';
import { SelectField, TextareaField, TextField } from '@/app/ui/field';
import { templateCategories } from '@/server/domains/templates/schemas';

export type TemplateCategory = (typeof templateCategories)[number];

export const isTemplateCategory = (value: string | null): value is TemplateCategory => value !== null && (templateCategories as readonly string[]).includes(value);

export interface TemplateFieldValues {
  name: string;
  description: string;
  category: TemplateCategory | '';
}

export function TemplateFields({
  values,
  onChange,
  nameError,
  labels,
}: {
  values: TemplateFieldValues;
  onChange: (values: TemplateFieldValues) => void;
  nameError?: string;
  labels: { name: string; description: string; descriptionHint?: string; category: string; noCategory: string };
}) {
  const { t } = useI18n();
  return (
    <>
      <TextField
        label={labels.name}
        name="name"
        autoFocus
        autoComplete="off"
        maxLength={200}
        value={values.name}
        error={nameError}
        onChange={(event) => onChange({ ...values, name: event.target.value })}
      />
      <TextareaField
        label={labels.description}
        optional={t.common.optional}
        hint={labels.descriptionHint}
        name="description"
        rows={3}
        maxLength={2000}
        value={values.description}
        onChange={(event) => onChange({ ...values, description: event.target.value })}
      />
      <SelectField label={labels.category} name="category" value={values.category} onChange={(event) => onChange({ ...values, category: event.target.value as TemplateCategory | '' })}>
        <option value="">{labels.noCategory}</option>
        {templateCategories.map((value) => (
          <option key={value} value={value}>
            {t.templates.categories[value] ?? value}
          </option>
        ))}
      </SelectField>
    </>
  );
}
