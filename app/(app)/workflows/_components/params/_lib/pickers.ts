/**
 * Parameters that name a resource of the member get a picker instead of a text field: the type's
 * `mailboxParams` (mailbox ids), `tableId` (a table, by id or slug), `credentialId`/`connectionId`
 * (a connection; http.request's `credentialId`), `workflowId` (sub-workflow and loop).
 */
import type { JsonSchema } from './schema';
import type { Segment } from './paths';

export type PickerKind = 'mailbox' | 'mailboxes' | 'table' | 'connection' | 'workflow';

export function pickerFor(name: string | undefined, schema: JsonSchema, segments: readonly Segment[], mailboxParams: readonly string[]): PickerKind | null {
  if (name === undefined) return null;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (segments.length === 1 && mailboxParams.includes(name)) {
    if (type === 'array') return 'mailboxes';
    if (type === 'string') return 'mailbox';
  }
  if (type !== 'string') return null;
  if (/^tableId$|TableId$/.test(name)) return 'table';
  if (/^(credential|connection)(Id)?$|(Credential|Connection)Id$/.test(name)) return 'connection';
  if (/^workflowId$/.test(name)) return 'workflow';
  return null;
}

/** Connection types a field's description names in backticks (`http_generic`): the picker offers those. */
export function connectionTypesIn(description: string | undefined, known: readonly string[]): string[] {
  if (!description) return [];
  const quoted = [...description.matchAll(/`([a-z0-9_]+)`/g)].map((match) => match[1]);
  return quoted.filter((type) => known.includes(type));
}
