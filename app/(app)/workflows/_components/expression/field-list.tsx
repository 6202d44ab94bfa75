'use client';

/**
 * The fields of a step's input or output (its data, or the shape its node type declares) as a tree
 * of buttons: clicking one inserts its expression (`{{ input.from.email }}`) into the expression
 * field the member was last in (insert-target.ts). Pressing the button does not take the focus
 * away from that field.
 */
import { useI18n } from '@/app/i18n/client';
import { schemaChild, schemaEntries, type JsonSchemaLike } from './_lib/known-fields';
import { insertIntoFocusedField } from './_lib/insert-target';

const maxDepth = 4;
const maxKeys = 60;
const identifier = /^[A-Za-z_][\w]*$/;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The keys under a value (a list's: its objects') and a schema, the data's first. */
function keysUnder(value: unknown, schema: JsonSchemaLike | undefined): string[] {
  const keys = new Set<string>();
  const objects = Array.isArray(value) ? value.filter(isObject).slice(0, 20) : isObject(value) ? [value] : [];
  for (const object of objects) for (const key of Object.keys(object)) keys.add(key);
  for (const entry of schemaEntries(schema)) keys.add(entry.key);
  return [...keys].slice(0, maxKeys);
}

function childOf(value: unknown, key: string): unknown {
  if (Array.isArray(value)) {
    const found = value.filter(isObject).find((item) => Object.hasOwn(item, key));
    return found ? found[key] : undefined;
  }
  return isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

const segment = (key: string) => (identifier.test(key) ? key : `\`${key.replace(/`/g, '')}\``);

function Fields({ value, schema, path, depth, label }: { value: unknown; schema: JsonSchemaLike | undefined; path: string; depth: number; label: (path: string) => string }) {
  const keys = depth < maxDepth ? keysUnder(value, schema) : [];
  if (keys.length === 0) return null;
  return (
    <ul className={depth === 0 ? 'space-y-0.5' : 'ml-3 space-y-0.5 border-l border-line pl-2'}>
      {keys.map((key) => {
        const expression = `${path}.${segment(key)}`;
        return (
          <li key={key}>
            <button
              type="button"
              data-testid="insert-field"
              data-path={expression}
              title={label(expression)}
              aria-label={label(expression)}
              className="rounded px-1 font-mono text-xs text-brand hover:bg-subtle"
              // Keep the focus in the expression field the member was typing in.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => insertIntoFocusedField(expression)}
            >
              {key}
            </button>
            <Fields value={childOf(value, key)} schema={schemaChild(schema, key)} path={expression} depth={depth + 1} label={label} />
          </li>
        );
      })}
    </ul>
  );
}

/** `root`: the expression of the whole data (`input`, `nodes.check`, `trigger`). */
export function FieldList({ title, root, value, schema, testId }: { title: string; root: string; value: unknown; schema?: JsonSchemaLike | null; testId?: string }) {
  const { t } = useI18n();
  const shape = schema ?? undefined;
  if (keysUnder(value, shape).length === 0) return null;
  return (
    <div data-testid={testId ?? 'field-list'} data-root={root} className="space-y-1">
      <p className="text-xs font-medium text-muted">{title}</p>
      <p className="text-[11px] text-muted">{t.params.expression.insertHint}</p>
      <Fields value={value} schema={shape} path={root} depth={0} label={t.params.expression.insertField} />
    </div>
  );
}
