'use client';

/**
 * The controls of fields that are more than their kind (`_lib/widgets.ts` tells which): a list of
 * options as checkboxes, a time of day as a time input, a time zone as a list of zones. Each still
 * switches to an expression (`fx`), and a value they cannot show (an unknown zone, a time written
 * another way) stays visible as written rather than lost.
 */
import { useMemo, useSyncExternalStore } from 'react';
import { Checkbox, Input, Select } from '@/app/ui/field';
import { describedBy } from './field-frame';
import { ExpressionControl, Frame, controlAria, useExpressionMode, type InnerProps } from './field-parts';
import { defaultText, initialValue } from './_lib/schema';
import { isClockText, knownTimeZones, localTimeZone, orderedChoices } from './_lib/widgets';
import { optionWordsOf } from './scalar-fields';

/** A list of options (`businessHours.days`): one checkbox per option, in the order a person reads them. */
export function ChoiceListField(props: InnerProps & { options: readonly string[] }) {
  const { base, value, onChange, options } = props;
  const { ctx, schema } = base;
  const expression = useExpressionMode(props, false);
  if (expression.on) {
    return (
      <Frame props={props} base={base} expression={expression} labelledControl={false}>
        <ExpressionControl props={props} base={base} value={value} />
      </Frame>
    );
  }
  const words = optionWordsOf(props.name, ctx.t);
  const shown = orderedChoices(options, words);
  // Absent, the default is what is chosen (and what the first change starts from).
  const chosen: unknown[] = Array.isArray(value) ? value : Array.isArray(base.defaultValue) ? base.defaultValue : [];
  const strays = chosen.filter((item) => typeof item !== 'string' || !options.includes(item));
  const min = schema.minItems ?? 0;
  const toggle = (option: unknown, on: boolean) => {
    const next = on ? [...chosen, option] : chosen.filter((item) => item !== option);
    onChange([...shown.filter((item) => next.includes(item)), ...next.filter((item) => !shown.includes(item as string))]);
  };
  const entries = [
    ...shown.map((option) => ({ option: option as unknown, label: words?.[option] ?? option })),
    ...strays.map((option) => ({ option, label: ctx.t.form.unknownValue(typeof option === 'string' ? option : JSON.stringify(option)) })),
  ];
  return (
    <Frame props={props} base={base} expression={expression} labelledControl={false}>
      <div
        role="group"
        aria-labelledby={props.bare ? undefined : `${base.controlId}-label`}
        aria-label={props.bare?.ariaLabel}
        aria-describedby={props.bare ? undefined : describedBy(base.controlId, schema.description, base.errors)}
        aria-invalid={base.errors.length > 0 ? true : undefined}
        className="flex flex-wrap gap-x-4 gap-y-1.5"
        data-widget="choices"
      >
        {entries.map(({ option, label }, index) => {
          const checked = chosen.includes(option);
          return (
            <label key={index} className="flex items-center gap-2 text-sm">
              <Checkbox
                disabled={ctx.disabled || (checked && chosen.length <= min)}
                checked={checked}
                onChange={(event) => toggle(option, event.target.checked)}
              />
              {label}
            </label>
          );
        })}
        {entries.length === 0 ? <p className="text-xs text-muted">{ctx.t.form.choicesNone}</p> : null}
      </div>
    </Frame>
  );
}

/** A time of day (`HH:MM`, 24-hour): the browser's time input. */
export function ClockField(props: InnerProps) {
  const { base, value, onChange, required } = props;
  const { ctx } = base;
  const expression = useExpressionMode(props, true);
  // A text that is not a time (`9am`) shows as written, in the editor, for the member to correct.
  const asText = expression.on || (value !== undefined && !isClockText(value));
  const onToggle = asText && !expression.on ? () => onChange(required ? initialValue(base.schema, ctx.root) : undefined) : expression.onToggle;
  const placeholder = defaultText(base.defaultValue);
  return (
    <Frame props={props} base={base} expression={{ on: asText, onToggle }} labelledControl={!asText}>
      {asText ? (
        <ExpressionControl props={props} base={base} value={value} />
      ) : (
        <div className="flex items-center gap-2">
          <Input
            {...controlAria(props, base)}
            type="time"
            step={60}
            className="w-36"
            disabled={ctx.disabled}
            data-widget="clock"
            value={typeof value === 'string' ? value : ''}
            onChange={(event) => {
              const text = event.target.value;
              onChange(text === '' ? (required ? '' : undefined) : text.slice(0, 5));
            }}
          />
          {value === undefined && placeholder !== undefined ? <span className="text-xs text-muted">{ctx.t.form.defaultPlaceholder(placeholder)}</span> : null}
        </div>
      )}
    </Frame>
  );
}

const noSubscription = () => () => {};

/** An IANA time zone: this browser's first, then every zone it knows. */
export function TimeZoneField(props: InnerProps) {
  const { base, value, onChange, required } = props;
  const { ctx } = base;
  const expression = useExpressionMode(props, true);
  const zones = useMemo(knownTimeZones, []);
  // Read in the browser only: the server's zone is not the member's (no hydration mismatch either).
  const here = useSyncExternalStore(noSubscription, localTimeZone, () => null);
  const current = typeof value === 'string' ? value : '';
  // The browser may name its zone by an older alias (Asia/Calcutta) the list gives as Asia/Kolkata: offered all the same.
  const unknown = current !== '' && current !== here && !zones.includes(current);
  const placeholder = defaultText(base.defaultValue);
  return (
    <Frame props={props} base={base} expression={expression} labelledControl={!expression.on}>
      {expression.on ? (
        <ExpressionControl props={props} base={base} value={value} />
      ) : (
        <Select
          {...controlAria(props, base)}
          disabled={ctx.disabled}
          data-widget="time-zone"
          value={current}
          onChange={(event) => onChange(event.target.value === '' ? (required ? '' : undefined) : event.target.value)}
        >
          <option value="" disabled={required && current !== ''}>
            {placeholder !== undefined ? ctx.t.form.defaultOption(placeholder) : required ? ctx.t.form.chooseOne : ctx.t.form.notSet}
          </option>
          {unknown ? <option value={current}>{ctx.t.form.unknownValue(current)}</option> : null}
          {here ? <option value={here}>{ctx.t.form.timeZoneHere(here)}</option> : null}
          <optgroup label={ctx.t.form.timeZonesAll}>
            {zones
              .filter((zone) => zone !== here)
              .map((zone) => (
                <option key={zone} value={zone}>
                  {zone}
                </option>
              ))}
          </optgroup>
        </Select>
      )}
    </Frame>
  );
}
