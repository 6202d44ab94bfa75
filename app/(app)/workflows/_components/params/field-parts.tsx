'use client';

/**
 * What every field family (scalar, composite, union, picker) shares: a field's props and base, its frame,
 * its expression control, and `NestedField`, which renders a nested value through the renderer the form
 * provides (`FieldRendererContext`). The families never import the dispatcher (`schema-field.tsx`), which
 * imports them: the recursion goes through React context, so the modules form no circle.
 */
import { createContext, useContext, useState, type ComponentType, type ReactNode } from 'react';
import { ExpressionEditor } from '../expression/expression-editor';
import { hasExpression } from '@/server/engine/expressions';
import { describedBy, ExpressionSwitch, FieldErrors, FieldFrame } from './field-frame';
import type { FormContextValue } from './form-context';
import type { Segment } from './_lib/paths';
import { defaultText, initialValue, type FieldKind, type JsonSchema } from './_lib/schema';

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

/** The component that renders one field of any kind: `SchemaField`, provided by the form. */
export const FieldRendererContext = createContext<ComponentType<FieldProps> | null>(null);

/** A nested field (an object's property, an array's item, a record's value, a union's branch). */
export function NestedField(props: FieldProps) {
  const Render = useContext(FieldRendererContext);
  if (!Render) throw new Error('A params field outside <NodeParamsForm>.');
  return <Render {...props} />;
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
