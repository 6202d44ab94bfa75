'use client';

/** The container fields of a generated form: objects (fieldsets), arrays (add, remove, reorder), records (key/value entries). */
import { useId, useState, type ReactNode } from 'react';
import { Input } from '@/app/ui/field';
import { Button } from '@/app/ui/button';
import { describedBy, ExpressionSwitch, FieldErrors, Hint, RequiredMark } from './field-frame';
import { useFormContext } from './form-context';
import { type Segment } from './_lib/paths';
import { asSchema, discriminators, initialValue, isPlainObject, kindOf, resolveRef, type JsonSchema } from './_lib/schema';
import { moveItem, renameKey, withKey } from './_lib/values';
import { type FieldProps, type FieldBase, NestedField, Frame, ExpressionControl, useExpressionMode, type InnerProps, isLeaf } from './field-parts';

export function ObjectProperties({ schema, value, defaultValue, segments, onChange }: { schema: JsonSchema; value: unknown; defaultValue: unknown; segments: Segment[]; onChange: (value: unknown) => void }) {
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
        <NestedField
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

export function ObjectField(props: InnerProps) {
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
export function Fieldset({ props, base, aside, expression, children }: { props: FieldProps; base: FieldBase; aside?: ReactNode; expression?: { on: boolean; onToggle: () => void }; children: ReactNode }) {
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

export function ArrayField(props: InnerProps) {
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
                <NestedField
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

export function RecordField(props: InnerProps) {
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
            <NestedField
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
