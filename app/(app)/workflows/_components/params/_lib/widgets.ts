/**
 * Fields that get a control of their own instead of the generic one of their kind, read from the
 * schema (and the parameter's name, as pickers are): a list of options is a set of checkboxes
 * (`businessHours.days`), a time of day is a time input (`start`, `end`), a time zone is a list of
 * the zones the browser knows (`businessHours.timeZone`, `data.datetime`'s `timeZone`). Without them
 * a member would type `mon` in list items, `09:00` in an expression editor and an IANA name from
 * memory.
 */
import { asSchema, kindOf, resolveRef, type JsonSchema } from './schema';

export type FieldWidget = 'choices' | 'clock' | 'timeZone';

/**
 * The pattern of a 24-hour `HH:MM` time, as the engine's business hours write it
 * (engine/nodes/flow/business-time.ts `clock`; the params form test renders that schema, so a
 * change there shows here).
 */
export const clockPattern = '^([01]\\d|2[0-3]):[0-5]\\d$';

const clockValue = new RegExp(clockPattern);

export function isClockText(value: unknown): value is string {
  return typeof value === 'string' && clockValue.test(value);
}

/** The string options of a list whose items are one of them, or null. */
export function choicesOf(schema: JsonSchema, root: JsonSchema): string[] | null {
  if (kindOf(schema) !== 'array') return null;
  const items = resolveRef(asSchema(schema.items), root);
  if (kindOf(items) !== 'enum') return null;
  const options = items.enum ?? [];
  return options.length > 0 && options.every((option) => typeof option === 'string') ? (options as string[]) : null;
}

export function widgetFor(name: string | undefined, schema: JsonSchema, root: JsonSchema): FieldWidget | null {
  if (choicesOf(schema, root)) return 'choices';
  if (kindOf(schema) !== 'string') return null;
  if (schema.pattern === clockPattern) return 'clock';
  if (name !== undefined && /^timeZone$|TimeZone$/.test(name)) return 'timeZone';
  return null;
}

/**
 * The options in the order a person reads them: the order of their words in the dictionary when it
 * words every one of them (weekdays from Monday, where the engine lists them from Sunday), else the
 * schema's.
 */
export function orderedChoices(options: readonly string[], words: Record<string, string> | undefined): string[] {
  if (!words || !options.every((option) => Object.hasOwn(words, option))) return [...options];
  const rank = Object.keys(words);
  return [...options].sort((a, b) => rank.indexOf(a) - rank.indexOf(b));
}

/** The IANA time zones the browser (or Node) knows, UTC included, sorted. */
export function knownTimeZones(): string[] {
  const listed = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', ...listed])].sort((a, b) => a.localeCompare(b));
}

/** The time zone of this browser, or null when it cannot say. */
export function localTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}
