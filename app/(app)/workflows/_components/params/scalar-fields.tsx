'use client';

/** The leaf fields of a generated form: text (expression editor), numbers, booleans, enums. */
import { useState } from 'react';
import { Checkbox, Input, Select } from '@/app/ui/field';
import { ExpressionSwitch, FieldErrors, Hint, RequiredMark } from './field-frame';
import { defaultText, isLongText } from './_lib/schema';
import { Frame, ExpressionControl, useExpressionMode, type InnerProps, controlAria } from './field-parts';

export function StringField(props: InnerProps) {
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

export function NumberField(props: InnerProps) {
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

export function BooleanField(props: InnerProps) {
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

export function optionText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The dictionary's words for options: condition operators, and other lists by parameter name. */
export interface OptionDictionary {
  operators: Record<string, string>;
  options: Record<string, Record<string, string>>;
}

/** The words of a parameter's options, when the dictionary has them. */
export function optionWordsOf(name: string | undefined, dictionary: OptionDictionary): Record<string, string> | undefined {
  if (name === undefined) return undefined;
  if (name === 'operator') return dictionary.operators;
  return Object.hasOwn(dictionary.options, name) ? dictionary.options[name] : undefined;
}

/**
 * An option as a person reads it: a condition's operator in words ("is not equal to", "matches the
 * pattern"), a unit or an attachments choice in words ("days", "Also the PDF and text attachments"),
 * any other option as it is written.
 */
export function optionWords(value: unknown, name: string | undefined, dictionary: OptionDictionary): string {
  const words = optionWordsOf(name, dictionary);
  if (words && typeof value === 'string' && Object.hasOwn(words, value)) return words[value];
  return optionText(value);
}

export function EnumField(props: InnerProps) {
  const { base, value, onChange, required } = props;
  const { ctx, schema } = base;
  const words = (option: unknown) => optionWords(option, props.name, ctx.t);
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
              {base.defaultValue !== undefined ? ctx.t.form.defaultOption(words(base.defaultValue)) : required ? ctx.t.form.chooseOne : ctx.t.form.notSet}
            </option>
          ) : null}
          {options.map((option, index) => (
            <option key={index} value={String(index)}>
              {words(option)}
            </option>
          ))}
          {unknown ? <option value="unknown">{ctx.t.form.unknownValue(optionText(value))}</option> : null}
        </Select>
      )}
    </Frame>
  );
}

/** The properties of an object schema rendered as fields (a discriminator `const` is the union's selector). */
