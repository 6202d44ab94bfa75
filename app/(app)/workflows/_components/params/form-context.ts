'use client';

/** What every generated field reads: the root schema, the pickers' lists, the sample data, the issues. */
import { createContext, useContext } from 'react';
import type { Dictionary } from '@/app/i18n';
import type { SampleScope } from '../expression/_lib/preview';
import type { JsonSchema } from './_lib/schema';

/** One item a picker offers; the label is the first of `label`, `name`, `address`, `email`, `id`. */
export interface PickerItem {
  id: string;
  label?: string;
  name?: string;
  address?: string;
  email?: string;
  /** Tables: a node may name a table by its slug. */
  slug?: string;
  /** Connections: `http_generic`, `imap`, … */
  type?: string;
}

export interface ParamsFormContext {
  /** The member's mailboxes (for `mailboxParams`). */
  mailboxes?: readonly PickerItem[];
  tables?: readonly PickerItem[];
  connections?: readonly PickerItem[];
  workflows?: readonly PickerItem[];
  /** What expressions see in the preview and the autocomplete: pinned data or the last run's. */
  sampleScope?: SampleScope | null;
}

export interface FormContextValue {
  root: JsonSchema;
  mailboxParams: readonly string[];
  lists: ParamsFormContext;
  sampleScope: SampleScope | null | undefined;
  /** Messages of the issues at `path` (relative to params); `descendants`: also those under it. */
  issuesAt: (path: string, descendants: boolean) => string[];
  t: Dictionary['params'];
  idBase: string;
  disabled: boolean;
}

export const FormContext = createContext<FormContextValue | null>(null);

export function useFormContext(): FormContextValue {
  const value = useContext(FormContext);
  if (!value) throw new Error('A params field outside <NodeParamsForm>.');
  return value;
}

export function itemLabel(item: PickerItem): string {
  return item.label ?? item.name ?? item.address ?? item.email ?? item.id;
}

export function fieldId(idBase: string, path: string): string {
  return `${idBase}-${path.replace(/[^A-Za-z0-9_-]+/g, '_') || 'root'}`;
}
