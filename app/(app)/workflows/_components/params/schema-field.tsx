'use client';

/**
 * One generated field per schema node, recursively: strings (expression editor), numbers, booleans,
 * enums, nested objects (fieldsets), records (key/value entries), arrays (add, remove, reorder),
 * unions (a kind selector), unknown values (text with expressions, or JSON); and, before those, the
 * fields that are more than their kind (option lists, times of day, time zones: `_lib/widgets.ts`) and
 * the pickers of the member's resources. Any non-text field can switch to an expression (`fx`): the
 * engine accepts `{{ … }}` wherever a value goes.
 *
 * A field emits only on the member's edits, through `onChange(value)` (`undefined` removes the key),
 * so params round-trip unchanged: an absent param stays absent and its default is a placeholder.
 *
 * This module only dispatches on the schema's kind; the families render nested values through
 * `NestedField` (field-parts.tsx), which reaches `SchemaField` through the context the form provides.
 */
import { fieldId, useFormContext } from './form-context';
import { pathKey } from './_lib/paths';
import { pickerFor } from './_lib/pickers';
import { humanize, kindOf, resolveRef } from './_lib/schema';
import { isLeaf, type FieldBase, type FieldProps } from './field-parts';
import { MailboxListField, PickerSelectField, pickerList } from './picker-fields';
import { StringField, NumberField, BooleanField, EnumField } from './scalar-fields';
import { ObjectField, ArrayField, RecordField } from './composite-fields';
import { UnionField, UnknownField } from './union-fields';
import { choicesOf, widgetFor } from './_lib/widgets';
import { ChoiceListField, ClockField, TimeZoneField } from './widget-fields';

function useFieldBase(props: FieldProps): FieldBase {
  const ctx = useFormContext();
  const schema = resolveRef(props.schema, ctx.root);
  const kind = kindOf(schema);
  const path = pathKey(props.segments);
  const labelText = typeof props.label === 'string' ? props.label : props.name ? humanize(props.name) : '';
  const ownIssues = props.bare?.parentShowsIssues ? [] : ctx.issuesAt(path, isLeaf(kind) || (typeof props.value === 'string' && kind !== 'union'));
  return {
    ctx,
    schema,
    kind,
    path,
    controlId: fieldId(ctx.idBase, path),
    label: props.label ?? labelText,
    labelText: props.bare?.ariaLabel ?? labelText,
    defaultValue: schema.default !== undefined ? schema.default : props.inheritedDefault,
    errors: ownIssues,
  };
}

export function SchemaField(props: FieldProps) {
  const base = useFieldBase(props);
  const picker = pickerFor(props.name, base.schema, props.segments, base.ctx.mailboxParams);
  if (picker) {
    const list = pickerList(picker, base.ctx.lists);
    if (list) {
      if (picker === 'mailboxes') return <MailboxListField {...props} base={base} items={list} />;
      return <PickerSelectField {...props} base={base} picker={picker} items={list} />;
    }
  }
  switch (widgetFor(props.name, base.schema, base.ctx.root)) {
    case 'choices':
      return <ChoiceListField {...props} base={base} options={choicesOf(base.schema, base.ctx.root) ?? []} />;
    case 'clock':
      return <ClockField {...props} base={base} />;
    case 'timeZone':
      return <TimeZoneField {...props} base={base} />;
    case null:
      break;
  }
  switch (base.kind) {
    case 'string':
      return <StringField {...props} base={base} />;
    case 'number':
    case 'integer':
      return <NumberField {...props} base={base} />;
    case 'boolean':
      return <BooleanField {...props} base={base} />;
    case 'enum':
      return <EnumField {...props} base={base} />;
    case 'object':
      return <ObjectField {...props} base={base} />;
    case 'record':
      return <RecordField {...props} base={base} />;
    case 'array':
      return <ArrayField {...props} base={base} />;
    case 'union':
      return <UnionField {...props} base={base} />;
    case 'unknown':
      return <UnknownField {...props} base={base} />;
    case 'const':
    case 'null':
      return null;
  }
}
