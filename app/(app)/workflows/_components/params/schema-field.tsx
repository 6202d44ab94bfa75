'use client';

/**
 * One generated field per schema node, recursively: strings (expression editor), numbers, booleans,
 * enums, nested objects (fieldsets), records (key/value entries), arrays (add, remove, reorder),
 * unions (a kind selector), unknown values (text with expressions, or JSON). Any non-text field can
 * switch to an expression (`fx`): the engine accepts `{{ … }}` wherever a value goes.
 *
 * A field emits only on the member's edits, through `onChange(value)` (`undefined` removes the key),
 * so params round-trip unchanged: an absent param stays absent and its default is a placeholder.
 */
import { useState, type ReactNode } from 'react';
import { ExpressionEditor } from '../expression/expression-editor';
import { hasExpression } from '@/server/engine/expressions';
import { describedBy, ExpressionSwitch, FieldErrors, FieldFrame } from './field-frame';
import { fieldId, useFormContext, type FormContextValue } from './form-context';
import { pathKey, type Segment } from './_lib/paths';
import { pickerFor } from './_lib/pickers';
import { defaultText, humanize, initialValue, kindOf, resolveRef, type FieldKind, type JsonSchema } from './_lib/schema';
import { MailboxListField, PickerSelectField, pickerList } from './picker-fields';
import { StringField, NumberField, BooleanField, EnumField } from './scalar-fields';
import { ObjectField, ArrayField, RecordField } from './composite-fields';
import { UnionField, UnknownField } from './union-fields';

export interface FieldProps {
  schema: JsonSchema;
  value: unknown;
  /** `undefined` removes the value (an object key). */
  onChange: (value: unknown) => void;
  segments: Segment[];
  /** The property name (labels, pickers). */
  name?: string;
  label?: ReactNode;
  required?: boolean;
  /** The default the parent's default gives this value (`expiresIn.amount` from `expiresIn`'s default). */
  inheritedDefault?: unknown;
  /** No frame: the caller labels the control (`ariaLabel`) and shows the issues at this path. */
  bare?: { ariaLabel: string; parentShowsIssues: boolean };
  /** The params' root object (no fieldset). */
  isRoot?: boolean;
}

export interface FieldBase {
  ctx: FormContextValue;
  schema: JsonSchema;
  kind: FieldKind;
  path: string;
  controlId: string;
  label: ReactNode;
  labelText: string;
  defaultValue: unknown;
  /** Issues shown by this field (none when bare under a union that shows them). */
  errors: string[];
}

/** The params path as the engine names it in messages (`params.conditions[0].left`). */
export function enginePath(path: string): string {
  return path === '' ? 'params' : path.startsWith('[') ? `params${path}` : `params.${path}`;
}

export function isLeaf(kind: FieldKind): boolean {
  return !['object', 'record', 'array', 'union'].includes(kind);
}

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

export type InnerProps = FieldProps & { base: FieldBase };

/** A field's frame, or only its errors when bare. */
export function Frame({
  props,
  base,
  children,
  expression,
  aside,
  labelledControl = true,
}: {
  props: FieldProps;
  base: FieldBase;
  children: ReactNode;
  expression?: { on: boolean; onToggle: () => void };
  aside?: ReactNode;
  labelledControl?: boolean;
}) {
  if (props.bare) {
    return (
      <div className="min-w-0 space-y-1" data-field-path={base.path}>
        {aside || expression ? (
          <div className="flex items-center justify-end gap-1.5">
            {aside}
            {expression ? <ExpressionSwitch on={expression.on} onToggle={expression.onToggle} /> : null}
          </div>
        ) : null}
        {children}
        <FieldErrors messages={base.errors} id={`${base.controlId}-error`} />
      </div>
    );
  }
  return (
    <FieldFrame
      controlId={base.controlId}
      label={base.label}
      required={props.required}
      description={base.schema.description}
      errors={base.errors}
      expression={expression}
      aside={aside}
      labelledControl={labelledControl}
      path={base.path}
    >
      {children}
    </FieldFrame>
  );
}

/** Aria attributes of a control: labelled by the frame's label, or by `bare.ariaLabel`. */
export function controlAria(props: FieldProps, base: FieldBase) {
  return {
    id: base.controlId,
    'aria-label': props.bare ? props.bare.ariaLabel : undefined,
    'aria-describedby': props.bare ? (base.errors.length > 0 ? `${base.controlId}-error` : undefined) : describedBy(base.controlId, base.schema.description, base.errors),
    'aria-invalid': base.errors.length > 0 ? true : undefined,
  };
}

/** The expression editor standing in for a typed control. */
export function ExpressionControl({ props, base, value, multiline = false }: { props: FieldProps; base: FieldBase; value: unknown; multiline?: boolean }) {
  const { ctx } = base;
  const placeholder = defaultText(base.defaultValue);
  return (
    <ExpressionEditor
      id={base.controlId}
      labelledBy={props.bare ? undefined : `${base.controlId}-label`}
      ariaLabel={props.bare ? props.bare.ariaLabel : undefined}
      describedBy={controlAria(props, base)['aria-describedby']}
      invalid={base.errors.length > 0}
      disabled={ctx.disabled}
      value={typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value)}
      multiline={multiline}
      placeholder={placeholder !== undefined ? ctx.t.form.defaultPlaceholder(placeholder) : undefined}
      sampleScope={ctx.sampleScope}
      path={enginePath(base.path)}
      onChange={(text) => props.onChange(text === '' && !props.required ? undefined : text)}
    />
  );
}

/** Whether a non-text field shows the expression editor: switched on, or its value is a string. */
export function useExpressionMode(props: FieldProps, acceptsPlainString: boolean) {
  const [forced, setForced] = useState(false);
  const value = props.value;
  const on = forced || (typeof value === 'string' && (!acceptsPlainString || hasExpression(value)));
  const toggle = () => {
    if (on) {
      setForced(false);
      if (typeof value === 'string') props.onChange(props.required ? initialValue(props.schema) : undefined);
    } else {
      setForced(true);
    }
  };
  return { on, onToggle: toggle };
}
