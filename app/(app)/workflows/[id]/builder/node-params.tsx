'use client';

/**
 * The parameters of one node. Stand-in until the generated forms are mounted: the parameters as
 * JSON, applied when they parse.
 */
import { useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { TextareaField } from '@/app/ui/field';
import type { NodeType } from './api';
import type { PlacedIssue } from './model/issues';

export function NodeParams({
  params,
  onChange,
  issues,
}: {
  nodeType: NodeType | undefined;
  params: Record<string, unknown>;
  onChange: (params: Record<string, unknown>) => void;
  issues: PlacedIssue[];
}) {
  const { t } = useI18n();
  const [text, setText] = useState(() => JSON.stringify(params, null, 2));
  const [error, setError] = useState<string>();
  return (
    <TextareaField
      label={t.builder.inspector.params}
      rows={12}
      spellCheck={false}
      className="font-mono text-[12px] leading-4"
      value={text}
      error={error ?? issues.map((issue) => `${issue.path}: ${issue.message}`).join('\n') ?? undefined}
      onChange={(event) => {
        setText(event.target.value);
        try {
          const parsed: unknown = JSON.parse(event.target.value);
          if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error();
          setError(undefined);
          onChange(parsed as Record<string, unknown>);
        } catch {
          setError(t.workflows.graphErrors.notObject);
        }
      }}
    />
  );
}
