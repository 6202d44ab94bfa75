'use client';

/** Pickers for parameters naming the member's resources: mailboxes, tables, connections, workflows. */
import { Checkbox, Select } from '@/app/ui/field';
import { hasExpression } from '@/server/engine/expressions';
import { FieldFrame } from './field-frame';
import { itemLabel, type ParamsFormContext, type PickerItem } from './form-context';
import { connectionTypesIn, type PickerKind } from './_lib/pickers';
import { defaultText } from './_lib/schema';
import { ExpressionControl, Frame, useExpressionMode, type FieldBase, type FieldProps } from './field-parts';

/** The list a picker offers, or null when the builder passed none (the field stays a text field). */
export function pickerList(picker: PickerKind, lists: ParamsFormContext): readonly PickerItem[] | null {
  switch (picker) {
    case 'mailbox':
    case 'mailboxes':
      return lists.mailboxes ?? null;
    case 'table':
      return lists.tables ?? null;
    case 'connection':
      return lists.connections ?? null;
    case 'workflow':
      return lists.workflows ?? null;
  }
}

export function PickerSelectField(props: FieldProps & { base: FieldBase; picker: PickerKind; items: readonly PickerItem[] }) {
  const { base, value, onChange, required, picker } = props;
  const { ctx, schema } = base;
  const expression = useExpressionMode(props, true);
  const knownTypes = [...new Set(props.items.map((item) => item.type).filter((type): type is string => typeof type === 'string'))];
  const types = picker === 'connection' ? connectionTypesIn(schema.description, knownTypes) : [];
  const items = types.length > 0 ? props.items.filter((item) => item.type !== undefined && types.includes(item.type)) : props.items;
  const options = items.map((item) => ({ value: picker === 'table' && item.slug !== undefined && item.slug === value ? item.slug : item.id, label: itemLabel(item) }));
  const current = typeof value === 'string' ? value : '';
  const unknown = current !== '' && !options.some((option) => option.value === current);
  const none =
    picker === 'mailbox' ? ctx.t.pickers.mailboxDefault : picker === 'table' ? ctx.t.pickers.tableNone : picker === 'workflow' ? ctx.t.pickers.workflowNone : ctx.t.pickers.connectionNone;
  const placeholder = defaultText(base.defaultValue);
  return (
    <Frame props={props} base={base} expression={expression} labelledControl={!expression.on}>
      {expression.on ? (
        <ExpressionControl props={props} base={base} value={value} />
      ) : (
        <Select
          id={base.controlId}
          aria-label={props.bare?.ariaLabel}
          aria-invalid={base.errors.length > 0 ? true : undefined}
          data-picker={picker}
          disabled={ctx.disabled}
          value={current}
          onChange={(event) => onChange(event.target.value === '' ? (required ? '' : undefined) : event.target.value)}
        >
          <option value="" disabled={required && current !== ''}>
            {placeholder !== undefined ? ctx.t.form.defaultOption(placeholder) : none}
          </option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
          {unknown ? <option value={current}>{ctx.t.form.unknownValue(current)}</option> : null}
        </Select>
      )}
    </Frame>
  );
}

/** A list of mailbox ids (`mailboxIds` of the mail trigger): one checkbox per mailbox of the member. */
export function MailboxListField(props: FieldProps & { base: FieldBase; items: readonly PickerItem[] }) {
  const { base, value, onChange, required, items } = props;
  const { ctx } = base;
  const expression = useExpressionMode(props, false);
  const chosen = Array.isArray(value) ? value : [];
  const known = new Set(items.map((item) => item.id));
  const strays = chosen.filter((id): id is string => typeof id === 'string' && !known.has(id));
  if (expression.on || (typeof value === 'string' && hasExpression(value))) {
    return (
      <Frame props={props} base={base} expression={expression} labelledControl={false}>
        <ExpressionControl props={props} base={base} value={value} />
      </Frame>
    );
  }
  return (
    <FieldFrame
      controlId={base.controlId}
      label={base.label}
      required={required}
      description={base.schema.description}
      errors={base.errors}
      expression={expression}
      labelledControl={false}
      path={base.path}
    >
      <div role="group" aria-labelledby={`${base.controlId}-label`} className="space-y-1.5" data-picker="mailboxes">
        {items.length === 0 ? <p className="text-xs text-muted">{ctx.t.pickers.noMailboxes}</p> : null}
        {[...items.map((item) => ({ id: item.id, label: itemLabel(item) })), ...strays.map((id) => ({ id, label: ctx.t.form.unknownValue(id) }))].map((item) => (
          <label key={item.id} className="flex items-center gap-2 text-sm">
            <Checkbox
              disabled={ctx.disabled}
              checked={chosen.includes(item.id)}
              onChange={(event) => onChange(event.target.checked ? [...chosen, item.id] : chosen.filter((id) => id !== item.id))}
            />
            {item.label}
          </label>
        ))}
        {chosen.length === 0 && items.length > 0 ? <p className="text-xs text-muted">{ctx.t.pickers.allMailboxes}</p> : null}
      </div>
    </FieldFrame>
  );
}

