'use client';

/** Unions (a kind selector over the branches) and unknown values (text with expressions, or JSON). */
import { useState } from 'react';
import { Select, Textarea } from '@/app/ui/field';
import { cn } from '@/app/ui/cn';
import { hasExpression } from '@/server/engine/expressions';
import { FieldErrors } from './field-frame';
import type { FormContextValue } from './form-context';
import { initialValue, isLongText, isPlainObject, kindOf, matchBranch, resolveRef, unionBranches, type JsonSchema } from './_lib/schema';
import { NestedField, Frame, ExpressionControl, useExpressionMode, type InnerProps, controlAria } from './field-parts';
import { optionText } from './scalar-fields';
import { ObjectProperties } from './composite-fields';

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

export function UnionField(props: InnerProps) {
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
    <NestedField
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

export function UnknownField(props: InnerProps) {
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
