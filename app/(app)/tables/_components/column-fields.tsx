'use client';

/**
 * Editing one column's definition (label, key, type, key column, required, options, description):
 * used by the new-table dialog (several at once) and by the add/edit column dialog.
 */
import { useI18n } from '@/app/i18n/client';
import type { Dictionary } from '@/app/i18n';
import { CheckboxField, SelectField, TextareaField, TextField } from '@/app/ui/field';
import { isColumnKey, keyFromLabel } from '@/server/domains/tables/naming';
import { columnTypes, type Column, type ColumnInput, type ColumnType } from '../_lib/api';

export interface ColumnDraft {
  uid: number;
  label: string;
  key: string;
  type: ColumnType;
  isKey: boolean;
  required: boolean;
  optionsText: string;
  description: string;
}

export type ColumnDraftErrors = Partial<Record<'label' | 'key' | 'options', string>>;

let nextUid = 1;

export function emptyColumnDraft(): ColumnDraft {
  return { uid: nextUid++, label: '', key: '', type: 'text', isKey: false, required: false, optionsText: '', description: '' };
}

export function draftFromColumn(column: Column): ColumnDraft {
  return {
    uid: nextUid++,
    label: column.label,
    key: column.key,
    type: column.type,
    isKey: column.isKey,
    required: column.required,
    optionsText: column.options.join('\n'),
    description: column.description ?? '',
  };
}

export function optionsOf(draft: ColumnDraft): string[] {
  return [...new Set(draft.optionsText.split('\n').map((line) => line.trim()).filter(Boolean))];
}

/** The key the service will use: the one typed, else derived from the label. */
export function effectiveKey(draft: ColumnDraft): string {
  return draft.key.trim() || keyFromLabel(draft.label);
}

export function columnInputOf(draft: ColumnDraft): ColumnInput {
  return {
    label: draft.label.trim(),
    ...(draft.key.trim() ? { key: draft.key.trim() } : {}),
    type: draft.type,
    isKey: draft.isKey,
    required: draft.required,
    options: draft.type === 'select' ? optionsOf(draft) : [],
    description: draft.description.trim() || null,
  };
}

/** Client-side checks; `takenKeys` are the keys of the other columns. */
export function validateColumnDraft(draft: ColumnDraft, takenKeys: ReadonlySet<string>, t: Dictionary): ColumnDraftErrors {
  const errors: ColumnDraftErrors = {};
  if (!draft.label.trim()) errors.label = t.tables.columnFields.labelRequired;
  if (draft.key.trim() && !isColumnKey(draft.key.trim())) errors.key = t.tables.columnFields.keyInvalid;
  else if (draft.label.trim() && takenKeys.has(effectiveKey(draft))) errors.key = t.tables.columnFields.keyDuplicate;
  if (draft.type === 'select') {
    const options = optionsOf(draft);
    if (options.length === 0) errors.options = t.tables.columnFields.optionsRequired;
    else if (options.length > 100) errors.options = t.tables.columnFields.optionsTooMany;
  }
  return errors;
}

export function hasErrors(errors: ColumnDraftErrors): boolean {
  return Object.values(errors).some(Boolean);
}

export function ColumnFields({
  draft,
  onChange,
  errors = {},
  keyLocked = false,
  disabled = false,
  idPrefix,
  compact = false,
}: {
  draft: ColumnDraft;
  onChange: (next: ColumnDraft) => void;
  errors?: ColumnDraftErrors;
  /** An existing column: its key cannot change. */
  keyLocked?: boolean;
  disabled?: boolean;
  idPrefix: string;
  /** Several columns at once: fewer hints, description beside the flags. */
  compact?: boolean;
}) {
  const { t } = useI18n();
  const f = t.tables.columnFields;
  const set = (patch: Partial<ColumnDraft>) => onChange({ ...draft, ...patch });
  const derived = keyFromLabel(draft.label);
  return (
    <div className="space-y-4">
      <div className="grid items-start gap-3 sm:grid-cols-[minmax(0,3fr)_minmax(0,2fr)_minmax(0,2fr)]">
        <TextField
          id={`${idPrefix}-label`}
          label={f.label}
          value={draft.label}
          maxLength={120}
          autoComplete="off"
          placeholder={f.labelPlaceholder}
          disabled={disabled}
          onChange={(event) => set({ label: event.target.value })}
          error={errors.label}
        />
        <SelectField
          id={`${idPrefix}-type`}
          label={f.type}
          value={draft.type}
          disabled={disabled}
          onChange={(event) => set({ type: event.target.value as ColumnType })}
        >
          {columnTypes.map((type) => (
            <option key={type} value={type}>
              {t.tables.types[type]}
            </option>
          ))}
        </SelectField>
        <TextField
          id={`${idPrefix}-key`}
          label={f.key}
          value={draft.key}
          maxLength={60}
          autoComplete="off"
          spellCheck={false}
          placeholder={keyLocked ? undefined : derived}
          readOnly={keyLocked}
          disabled={disabled}
          className="font-mono text-[13px]"
          onChange={(event) => set({ key: event.target.value })}
          hint={keyLocked ? f.keyLocked : compact ? undefined : f.keyHint}
          error={errors.key}
          optional={keyLocked ? undefined : t.common.optional}
        />
      </div>
      <div className={compact ? 'flex flex-wrap gap-x-6 gap-y-3' : 'flex flex-wrap gap-x-8 gap-y-3'}>
        <CheckboxField
          id={`${idPrefix}-required`}
          label={f.required}
          checked={draft.required}
          disabled={disabled}
          onChange={(event) => set({ required: event.target.checked })}
        />
        <CheckboxField
          id={`${idPrefix}-is-key`}
          label={f.isKey}
          hint={compact ? undefined : f.isKeyHint}
          title={compact ? f.isKeyHint : undefined}
          checked={draft.isKey}
          disabled={disabled}
          onChange={(event) => set({ isKey: event.target.checked })}
        />
      </div>
      {draft.type === 'select' ? (
        <TextareaField
          id={`${idPrefix}-options`}
          label={f.options}
          hint={f.optionsHint}
          rows={4}
          value={draft.optionsText}
          disabled={disabled}
          onChange={(event) => set({ optionsText: event.target.value })}
          error={errors.options}
        />
      ) : null}
      <TextField
        id={`${idPrefix}-description`}
        label={f.description}
        optional={t.common.optional}
        value={draft.description}
        maxLength={400}
        disabled={disabled}
        onChange={(event) => set({ description: event.target.value })}
      />
    </div>
  );
}
