'use client';

/**
 * The parameters form of one node, generated from its type's JSON Schema (`GET /api/v1/node-types`
 * `paramsSchema`): no hand-written form per node type. Controlled: `params` in, `onChange(params)`
 * out on each edit of the member (never on mount), so unchanged params stay exactly as they were.
 */
import { useId, useMemo } from 'react';
import { useI18n } from '@/app/i18n/client';
import { FieldErrors } from './field-frame';
import { FormContext, type FormContextValue, type ParamsFormContext } from './form-context';
import { isUnder, normaliseParamIssuePath, parsePath, type FieldIssue } from './_lib/paths';
import { asSchema, isPlainObject, resolveRef, unionBranches, type JsonSchema } from './_lib/schema';
import { FieldRendererContext } from './field-parts';
import { SchemaField } from './schema-field';

/** The parts of a node type (`trpc.nodeTypes.list`) the form reads. */
export interface ParamsNodeType {
  type: string;
  paramsSchema: Record<string, unknown>;
  /** Parameter names whose values are mailbox ids. */
  mailboxParams?: readonly string[];
}

export interface NodeParamsFormProps {
  nodeType: ParamsNodeType;
  params: Record<string, unknown>;
  onChange: (params: Record<string, unknown>) => void;
  context?: ParamsFormContext;
  /**
   * The server's issues about these params, with paths relative to them (`conditions[0].left`);
   * `params.…` and whole graph paths (`nodes[2].params.…`, see `issuesForNode`) are accepted too.
   */
  issues?: readonly FieldIssue[];
  disabled?: boolean;
}

function topLevelNames(root: JsonSchema): Set<string> {
  const names = new Set(Object.keys(root.properties ?? {}));
  for (const branch of unionBranches(root)) for (const name of Object.keys(resolveRef(branch, root).properties ?? {})) names.add(name);
  return names;
}

export function NodeParamsForm({ nodeType, params, onChange, context, issues = [], disabled = false }: NodeParamsFormProps) {
  const { t } = useI18n();
  const idBase = `params-${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
  const root = useMemo(() => asSchema(nodeType.paramsSchema), [nodeType.paramsSchema]);

  const normalised = useMemo(
    () =>
      issues.flatMap((issue) => {
        const path = normaliseParamIssuePath(issue.path);
        return path === null ? [] : [{ path, message: issue.message }];
      }),
    [issues],
  );

  const known = useMemo(() => topLevelNames(root), [root]);
  const unplaced = normalised.filter((issue) => {
    if (issue.path === '') return true;
    const [first] = parsePath(issue.path) ?? [];
    return typeof first !== 'string' || !known.has(first);
  });

  const value = useMemo<FormContextValue>(
    () => ({
      root,
      mailboxParams: nodeType.mailboxParams ?? [],
      lists: context ?? {},
      sampleScope: context?.sampleScope,
      issuesAt: (path, descendants) =>
        normalised.filter((issue) => path !== '' && (descendants ? isUnder(issue.path, path) : issue.path === path)).map((issue) => issue.message),
      t: t.params,
      idBase,
      disabled,
    }),
    [root, nodeType.mailboxParams, context, normalised, t.params, idBase, disabled],
  );

  return (
    <FormContext.Provider value={value}>
      <FieldRendererContext.Provider value={SchemaField}>
        <div data-testid="node-params-form" data-node-type={nodeType.type} role="group" aria-label={t.params.form.label} className="space-y-4">
          {unplaced.length > 0 ? (
            <div role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 dark:border-red-800 dark:bg-red-950/40">
              <FieldErrors messages={unplaced.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message))} />
            </div>
          ) : null}
          <SchemaField schema={root} value={params} segments={[]} required isRoot onChange={(next) => onChange(isPlainObject(next) ? next : {})} />
        </div>
      </FieldRendererContext.Provider>
    </FormContext.Provider>
  );
}
