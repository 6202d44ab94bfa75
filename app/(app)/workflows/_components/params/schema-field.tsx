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
import { useId, useState, type ReactNode } from 'react';
import { ExpressionEditor } from '../expression/expression-editor';
import { Checkbox, Input, Select, Textarea } from '@/app/ui/field';
import { Button } from '@/app/ui/button';
import { cn } from '@/app/ui/cn';
import { hasExpression } from '@/server/engine/expressions';
import { describedBy, ExpressionSwitch, FieldErrors, FieldFrame, Hint, RequiredMark } from './field-frame';
import { fieldId, useFormContext, type FormContextValue } from './form-context';
import { pathKey, type Segment } from './_lib/paths';
import { pickerFor } from './_lib/pickers';
import {
  asSchema,
  defaultText,
  discriminators,
  humanize,
  initialValue,
  isLongText,
  isPlainObject,
  kindOf,
  matchBranch,
  resolveRef,
  unionBranches,
  type FieldKind,
  type JsonSchema,
} from './_lib/schema';
import { moveItem, renameKey, withKey } from './_lib/values';
import { MailboxListField, PickerSelectField, pickerList } from './picker-fields';

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

function isLeaf(kind: FieldKind): boolean {
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

type InnerProps = FieldProps & { base: FieldBase };

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
function controlAria(props: FieldProps, base: FieldBase) {
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

function StringField(props: InnerProps) {
  const { base } = props;
  return (
    <Frame props={props} base={base} labelledControl={false}>
      <ExpressionControl props={props} base={base} value={props.value} multiline={isLongText(props.name, base.schema)} />
    </Frame>
  );
}

function numberText(value: unknown): string {
  return typeof value === 'number' ? String(value) : '';
}

function NumberField(props: InnerProps) {
  const { base, value, onChange } = props;
  const { ctx, schema } = base;
  const expression = useExpressionMode(props, false);
  const [draft, setDraft] = useState<string | null>(null);
  const placeholder = defaultText(base.defaultValue);
  const bounds = [schema.minimum !== undefined ? ctx.t.form.minimum(schema.minimum) : null, schema.maximum !== undefined ? ctx.t.form.maximum(schema.maximum) : null]
    .filter(Boolean)
    .join(', ');
  return (
    <Frame props={props} base={base} expression={expression} labelledControl={!expression.on}>
      {expression.on ? (
        <ExpressionControl props={props} base={base} value={value} />
      ) : (
        <Input
          {...controlAria(props, base)}
          type="number"
          inputMode={base.kind === 'integer' ? 'numeric' : 'decimal'}
          step={base.kind === 'integer' ? 1 : 'any'}
          min={schema.minimum}
          max={schema.maximum}
          disabled={ctx.disabled}
          placeholder={placeholder !== undefined ? ctx.t.form.defaultPlaceholder(placeholder) : bounds || undefined}
          value={draft ?? numberText(value)}
          onChange={(event) => {
            const text = event.target.value;
            setDraft(text);
            if (text.trim() === '') {
              onChange(undefined);
              return;
            }
            const number = Number(text);
            if (Number.isFinite(number)) onChange(number);
          }}
          onBlur={() => setDraft(null)}
        />
      )}
    </Frame>
  );
}

function BooleanField(props: InnerProps) {
  const { base, value, onChange, required } = props;
  const { ctx } = base;
  const expression = useExpressionMode(props, false);
  const triState = !required && base.defaultValue === undefined;
  if (expression.on) {
    return (
      <Frame props={props} base={base} expression={expression} labelledControl={false}>
        <ExpressionControl props={props} base={base} value={value} />
      </Frame>
    );
  }
  if (triState) {
    return (
      <Frame props={props} base={base} expression={expression}>
        <Select
          {...controlAria(props, base)}
          disabled={ctx.disabled}
          value={value === true ? 'true' : value === false ? 'false' : ''}
          onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value === 'true')}
        >
          <option value="">{ctx.t.form.any}</option>
          <option value="true">{ctx.t.form.yes}</option>
          <option value="false">{ctx.t.form.no}</option>
        </Select>
      </Frame>
    );
  }
  const checked = typeof value === 'boolean' ? value : base.defaultValue === true;
  if (props.bare) {
    return (
      <Frame props={props} base={base}>
        <Checkbox {...controlAria(props, base)} disabled={ctx.disabled} checked={checked} onChange={(event) => onChange(event.target.checked)} />
      </Frame>
    );
  }
  return (
    <div className="space-y-1" data-field-path={base.path}>
      <div className="flex items-start gap-2.5">
        <Checkbox
          {...controlAria(props, base)}
          className="mt-0.5"
          disabled={ctx.disabled}
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
        />
        <div className="min-w-0 flex-1">
          <div className="flex items-center justify-between gap-2">
            <label htmlFor={base.controlId} id={`${base.controlId}-label`} className="block text-sm font-medium">
              {base.label}
              {required ? <RequiredMark /> : null}
            </label>
            <ExpressionSwitch on={false} onToggle={expression.onToggle} />
          </div>
          {base.schema.description ? <Hint text={base.schema.description} id={`${base.controlId}-hint`} /> : null}
        </div>
      </div>
      <FieldErrors messages={base.errors} id={`${base.controlId}-error`} />
    </div>
  );
}

function optionText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function EnumField(props: InnerProps) {
  const { base, value, onChange, required } = props;
  const { ctx, schema } = base;
  // A plain string that is not an option is shown as an unknown option, not as an expression.
  const expression = useExpressionMode(props, true);
  const options = schema.enum ?? [];
  const selected = options.findIndex((option) => option === value);
  const unknown = value !== undefined && selected < 0 && !expression.on;
  return (
    <Frame props={props} base={base} expression={expression} labelledControl={!expression.on}>
      {expression.on ? (
        <ExpressionControl props={props} base={base} value={value} />
      ) : (
        <Select
          {...controlAria(props, base)}
          disabled={ctx.disabled}
          value={unknown ? 'unknown' : selected >= 0 ? String(selected) : ''}
          onChange={(event) => {
            const next = event.target.value;
            if (next === 'unknown') return;
            onChange(next === '' ? undefined : options[Number(next)]);
          }}
        >
          {!required || selected < 0 ? (
            <option value="" disabled={required}>
              {base.defaultValue !== undefined ? ctx.t.form.defaultOption(optionText(base.defaultValue)) : required ? ctx.t.form.chooseOne : ctx.t.form.notSet}
            </option>
          ) : null}
          {options.map((option, index) => (
            <option key={index} value={String(index)}>
              {optionText(option)}
            </option>
          ))}
          {unknown ? <option value="unknown">{ctx.t.form.unknownValue(optionText(value))}</option> : null}
        </Select>
      )}
    </Frame>
  );
}

/** The properties of an object schema rendered as fields (a discriminator `const` is the union's selector). */
function ObjectProperties({ schema, value, defaultValue, segments, onChange }: { schema: JsonSchema; value: unknown; defaultValue: unknown; segments: Segment[]; onChange: (value: unknown) => void }) {
  const properties = Object.entries(schema.properties ?? {}).filter(([, property]) => !Object.hasOwn(property, 'const'));
  const required = new Set(schema.required ?? []);
  const current = isPlainObject(value) ? value : undefined;
  const defaults = isPlainObject(defaultValue) ? defaultValue : undefined;
  const start = () => {
    const base = current ?? (defaults ? (structuredClone(defaults) as Record<string, unknown>) : {});
    // A union branch's discriminator (`mode: 'duration'`) goes with its first edit when missing.
    const missing = Object.entries(discriminators(schema)).filter(([key]) => !Object.hasOwn(base, key));
    return missing.length === 0 ? base : { ...Object.fromEntries(missing), ...base };
  };
  return (
    <div className="space-y-4">
      {properties.map(([key, property]) => (
        <SchemaField
          key={key}
          name={key}
          schema={property}
          required={required.has(key)}
          segments={[...segments, key]}
          value={current && Object.hasOwn(current, key) ? current[key] : undefined}
          inheritedDefault={defaults && Object.hasOwn(defaults, key) ? defaults[key] : undefined}
          onChange={(next) => onChange(withKey(start(), key, next))}
        />
      ))}
    </div>
  );
}

function ObjectField(props: InnerProps) {
  const { base, value, onChange, required, segments, isRoot } = props;
  const { ctx, schema } = base;
  const expression = useExpressionMode(props, false);
  if (isRoot) {
    if (Object.keys(schema.properties ?? {}).length === 0) return <p className="text-sm text-muted">{ctx.t.form.noParams}</p>;
    return <ObjectProperties schema={schema} value={value} defaultValue={base.defaultValue} segments={segments} onChange={onChange} />;
  }
  const present = isPlainObject(value);
  const shown = present || isPlainObject(base.defaultValue) || required;
  const aside =
    !required && !expression.on ? (
      present ? (
        <Button size="sm" variant="ghost" disabled={ctx.disabled} onClick={() => onChange(undefined)}>
          {ctx.t.form.leaveOut}
        </Button>
      ) : !shown ? (
        <Button size="sm" disabled={ctx.disabled} onClick={() => onChange(initialValue(schema, ctx.root))}>
          {ctx.t.form.include}
        </Button>
      ) : null
    ) : null;
  const body = expression.on ? (
    <ExpressionControl props={props} base={base} value={value} />
  ) : shown ? (
    <ObjectProperties schema={schema} value={value} defaultValue={base.defaultValue} segments={segments} onChange={onChange} />
  ) : null;
  if (props.bare) {
    return (
      <Frame props={props} base={base} aside={aside}>
        {body}
      </Frame>
    );
  }
  return (
    <Fieldset props={props} base={base} aside={aside} expression={expression}>
      {body}
    </Fieldset>
  );
}

/** A group of fields under a legend (objects, lists, records). */
function Fieldset({ props, base, aside, expression, children }: { props: FieldProps; base: FieldBase; aside?: ReactNode; expression?: { on: boolean; onToggle: () => void }; children: ReactNode }) {
  return (
    <fieldset className="min-w-0 space-y-3 rounded-md border border-line p-3" data-field-path={base.path} aria-describedby={describedBy(base.controlId, base.schema.description, base.errors)}>
      <legend className="float-left flex w-full items-center justify-between gap-2 text-sm font-medium text-fg">
        <span id={`${base.controlId}-label`}>
          {base.label}
          {props.required ? <RequiredMark /> : null}
        </span>
        <span className="flex items-center gap-1.5">
          {aside}
          {expression ? <ExpressionSwitch on={expression.on} onToggle={expression.onToggle} /> : null}
        </span>
      </legend>
      <div className="clear-both space-y-3">
        {base.schema.description ? <Hint text={base.schema.description} id={`${base.controlId}-hint`} /> : null}
        <FieldErrors messages={base.errors} id={`${base.controlId}-error`} />
        {children}
      </div>
    </fieldset>
  );
}

function ArrayField(props: InnerProps) {
  const { base, value, onChange, segments } = props;
  const { ctx, schema } = base;
  const expression = useExpressionMode(props, false);
  const itemSchema = resolveRef(asSchema(schema.items), ctx.root);
  const itemKind = kindOf(itemSchema);
  const items = Array.isArray(value) ? value : Array.isArray(base.defaultValue) ? base.defaultValue : [];
  const min = schema.minItems ?? 0;
  const max = schema.maxItems ?? Infinity;
  const bounds = ctx.t.form.itemsBounds(schema.minItems ?? null, schema.maxItems ?? null);
  const frameless = isLeaf(itemKind) && itemKind !== 'unknown';
  const body = expression.on ? (
    <ExpressionControl props={props} base={base} value={value} />
  ) : (
    <>
      {items.length === 0 ? <p className="text-xs text-muted">{ctx.t.form.noItems}</p> : null}
      <ol className="space-y-2">
        {items.map((item, index) => {
          const label = ctx.t.form.item(index + 1);
          return (
            <li key={index} className="flex items-start gap-2" data-testid="array-item">
              <div className="min-w-0 flex-1">
                <SchemaField
                  schema={itemSchema}
                  value={item}
                  required
                  segments={[...segments, index]}
                  label={label}
                  bare={frameless ? { ariaLabel: `${base.labelText} ${index + 1}`, parentShowsIssues: false } : undefined}
                  onChange={(next) => onChange(items.map((old, at) => (at === index ? next : old)))}
                />
              </div>
              <div className="flex shrink-0 items-center gap-0.5">
                <IconButton label={ctx.t.form.moveUp(index + 1)} disabled={ctx.disabled || index === 0} onClick={() => onChange(moveItem(items, index, index - 1))}>
                  ↑
                </IconButton>
                <IconButton
                  label={ctx.t.form.moveDown(index + 1)}
                  disabled={ctx.disabled || index === items.length - 1}
                  onClick={() => onChange(moveItem(items, index, index + 1))}
                >
                  ↓
                </IconButton>
                <IconButton
                  label={ctx.t.form.removeItem(index + 1)}
                  disabled={ctx.disabled || items.length <= min}
                  onClick={() => onChange(items.filter((_, at) => at !== index))}
                >
                  ×
                </IconButton>
              </div>
            </li>
          );
        })}
      </ol>
      <div className="flex items-center gap-2">
        <Button size="sm" disabled={ctx.disabled || items.length >= max} onClick={() => onChange([...items, initialValue(itemSchema, ctx.root)])}>
          {ctx.t.form.addItem}
        </Button>
        {bounds ? <span className="text-xs text-muted">{bounds}</span> : null}
      </div>
    </>
  );
  if (props.bare) {
    return (
      <Frame props={props} base={base} expression={props.bare.parentShowsIssues ? undefined : expression}>
        {body}
      </Frame>
    );
  }
  return (
    <Fieldset props={props} base={base} expression={expression}>
      {body}
    </Fieldset>
  );
}

export function IconButton({ label, disabled, onClick, children }: { label: string; disabled?: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
      className="inline-flex size-7 items-center justify-center rounded text-sm text-muted hover:bg-subtle hover:text-fg disabled:pointer-events-none disabled:opacity-40"
    >
      <span aria-hidden="true">{children}</span>
    </button>
  );
}

function RecordField(props: InnerProps) {
  const { base, value, onChange, segments } = props;
  const { ctx, schema } = base;
  const expression = useExpressionMode(props, false);
  const valueSchema = resolveRef(asSchema(schema.additionalProperties), ctx.root);
  const record = isPlainObject(value) ? value : {};
  const keys = Object.keys(record);
  const addEntry = () => {
    let n = keys.length + 1;
    while (Object.hasOwn(record, `key${n}`)) n += 1;
    onChange(withKey(record, `key${n}`, initialValue(valueSchema, ctx.root)));
  };
  const body = expression.on ? (
    <ExpressionControl props={props} base={base} value={value} />
  ) : (
    <>
      {keys.length === 0 ? <p className="text-xs text-muted">{ctx.t.form.noItems}</p> : null}
      <ul className="space-y-2">
        {keys.map((key, index) => (
          <li key={index} className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)_auto] items-start gap-2" data-testid="record-entry">
            <EntryKey value={key} taken={keys.filter((other) => other !== key)} onRename={(next) => onChange(renameKey(record, key, next))} />
            <SchemaField
              schema={valueSchema}
              value={record[key]}
              required
              segments={[...segments, key]}
              bare={{ ariaLabel: `${base.labelText}: ${key}`, parentShowsIssues: false }}
              onChange={(next) => onChange(withKey(record, key, next === undefined ? '' : next))}
            />
            <IconButton label={ctx.t.form.removeEntry(key)} disabled={ctx.disabled} onClick={() => onChange(withKey(record, key, undefined))}>
              ×
            </IconButton>
          </li>
        ))}
      </ul>
      <Button size="sm" disabled={ctx.disabled} onClick={addEntry}>
        {ctx.t.form.addEntry}
      </Button>
    </>
  );
  return (
    <Fieldset props={props} base={base} expression={expression}>
      {body}
    </Fieldset>
  );
}

function EntryKey({ value, taken, onRename }: { value: string; taken: string[]; onRename: (key: string) => void }) {
  const { t, disabled } = useFormContext();
  const [draft, setDraft] = useState<string | null>(null);
  const id = useId();
  const text = draft ?? value;
  const problem = text === '' ? t.form.keyEmpty : taken.includes(text) ? t.form.keyTaken : null;
  return (
    <div className="space-y-1">
      <Input
        controlSize="sm"
        aria-label={t.form.key}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? id : undefined}
        disabled={disabled}
        value={text}
        onChange={(event) => {
          const next = event.target.value;
          setDraft(next);
          if (next !== '' && !taken.includes(next) && next !== value) onRename(next);
        }}
        onBlur={() => setDraft(null)}
      />
      {problem ? (
        <p id={id} className="text-xs text-red-600 dark:text-red-400">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

function branchLabel(branch: JsonSchema, ctx: FormContextValue): string {
  const constants = Object.entries(branch.properties ?? {}).filter(([, property]) => Object.hasOwn(property, 'const'));
  if (constants.length > 0) {
    const [, property] = constants[0];
    return property.description ?? optionText(property.const);
  }
  if (branch.title) return branch.title;
  const kinds = ctx.t.form.kinds;
  switch (kindOf(branch)) {
    case 'array':
      return kinds.list;
    case 'string':
    case 'enum':
      return kinds.text;
    case 'number':
    case 'integer':
      return kinds.number;
    case 'boolean':
      return kinds.boolean;
    case 'null':
      return kinds.none;
    case 'object':
    case 'record':
      return kinds.object;
    default:
      return kinds.json;
  }
}

function UnionField(props: InnerProps) {
  const { base, value, onChange, required, segments, isRoot } = props;
  const { ctx, schema } = base;
  const branches = unionBranches(schema).map((branch) => resolveRef(branch, ctx.root));
  const matched = value === undefined ? matchBranch(branches, base.defaultValue) : matchBranch(branches, value);
  const expression = useExpressionMode(props, branches.some((branch) => kindOf(branch) === 'string' || kindOf(branch) === 'enum'));
  const expressionOn = expression.on || (value !== undefined && matched < 0);
  const branch = matched >= 0 ? branches[matched] : undefined;
  const branchKind = branch ? kindOf(branch) : 'unknown';
  const selectorId = `${base.controlId}-kind`;
  const selector = (
    <Select
      id={isRoot ? base.controlId : selectorId}
      data-role="kind"
      controlSize="sm"
      aria-label={isRoot ? undefined : `${base.labelText}: ${ctx.t.form.kind}`}
      disabled={ctx.disabled || expressionOn}
      value={value === undefined ? (required || isRoot ? String(Math.max(matched, 0)) : '') : matched >= 0 ? String(matched) : ''}
      onChange={(event) => {
        const next = event.target.value;
        if (next === '') onChange(undefined);
        else onChange(initialValue(branches[Number(next)], ctx.root));
      }}
    >
      {!required && !isRoot ? (
        <option value="">{base.defaultValue !== undefined && matched >= 0 ? ctx.t.form.defaultOption(branchLabel(branches[matched], ctx)) : ctx.t.form.notSet}</option>
      ) : null}
      {branches.map((option, index) => (
        <option key={index} value={String(index)}>
          {branchLabel(option, ctx)}
        </option>
      ))}
    </Select>
  );
  const branchValue = value === undefined ? (isPlainObject(base.defaultValue) ? undefined : value) : value;
  const content = expressionOn ? (
    <ExpressionControl props={props} base={base} value={value} />
  ) : branch && branchKind !== 'null' && branchKind !== 'const' && (value !== undefined || branchKind === 'object') ? (
    <SchemaField
      schema={branch}
      value={branchValue}
      required={required}
      segments={segments}
      name={props.name}
      inheritedDefault={value === undefined ? base.defaultValue : undefined}
      bare={{ ariaLabel: base.labelText, parentShowsIssues: true }}
      isRoot={isRoot}
      onChange={onChange}
    />
  ) : null;
  if (isRoot) {
    return (
      <div className="space-y-4">
        <div className="space-y-1.5">
          <label htmlFor={base.controlId} className="block text-sm font-medium">
            {ctx.t.form.kind}
          </label>
          {selector}
          <FieldErrors messages={base.errors} />
        </div>
        {branch && kindOf(branch) === 'object' && !expressionOn ? (
          <ObjectProperties schema={branch} value={value} defaultValue={undefined} segments={segments} onChange={onChange} />
        ) : null}
      </div>
    );
  }
  const wide = branchKind === 'object' || branchKind === 'array' || branchKind === 'record';
  const errors = ctx.issuesAt(base.path, !wide || expressionOn);
  return (
    <Frame props={props} base={{ ...base, errors: props.bare?.parentShowsIssues ? [] : errors }} aside={selector} expression={expression} labelledControl={false}>
      <div className={cn(wide && !expressionOn ? 'rounded-md border border-line p-3' : '')}>{content}</div>
    </Frame>
  );
}

function UnknownField(props: InnerProps) {
  const { base, value, onChange, required } = props;
  const { ctx } = base;
  const [mode, setMode] = useState<'text' | 'json'>(value === undefined || typeof value === 'string' ? 'text' : 'json');
  const [draft, setDraft] = useState<string | null>(null);
  const jsonText = draft ?? (value === undefined ? '' : JSON.stringify(value, null, 2));
  let invalid = false;
  if (draft !== null && draft.trim() !== '') {
    try {
      JSON.parse(draft);
    } catch {
      invalid = true;
    }
  }
  const switchMode = (next: 'text' | 'json') => {
    setMode(next);
    setDraft(null);
    if (next === 'text' && value !== undefined && typeof value !== 'string') onChange(JSON.stringify(value));
    if (next === 'json' && typeof value === 'string' && !hasExpression(value)) {
      try {
        onChange(JSON.parse(value));
      } catch {
        // Plain text stays a JSON string.
      }
    }
  };
  const selector = (
    <Select
      controlSize="sm"
      data-role="mode"
      aria-label={`${base.labelText}: ${ctx.t.form.kind}`}
      disabled={ctx.disabled}
      value={mode}
      onChange={(event) => switchMode(event.target.value === 'json' ? 'json' : 'text')}
    >
      <option value="text">{ctx.t.form.kinds.text}</option>
      <option value="json">{ctx.t.form.kinds.json}</option>
    </Select>
  );
  return (
    <Frame props={props} base={base} aside={selector} labelledControl={mode === 'json'}>
      {mode === 'text' ? (
        <ExpressionControl props={props} base={base} value={value} multiline={isLongText(props.name, base.schema)} />
      ) : (
        <>
          <Textarea
            {...controlAria(props, base)}
            aria-invalid={invalid || base.errors.length > 0 ? true : undefined}
            className="font-mono text-[13px]"
            rows={3}
            spellCheck={false}
            disabled={ctx.disabled}
            value={jsonText}
            onChange={(event) => {
              const text = event.target.value;
              setDraft(text);
              if (text.trim() === '') {
                onChange(required ? '' : undefined);
                return;
              }
              try {
                onChange(JSON.parse(text));
              } catch {
                // Kept as a draft until it parses.
              }
            }}
            onBlur={() => {
              if (!invalid) setDraft(null);
            }}
          />
          {invalid ? <p className="text-xs text-red-600 dark:text-red-400">{ctx.t.form.jsonInvalid}</p> : null}
        </>
      )}
    </Frame>
  );
}
