// @vitest-environment jsdom
/**
 * Issue 19 §6: operators read as words in the condition editor ("is not equal to", "matches the
 * pattern"), in English and French, never the stored value (`not_equals`); choosing one still
 * stores the engine's value.
 */
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { findNodeType } from '@/server/engine/nodes/registry';
import { conditionOperators } from '@/server/engine/nodes/logic/conditions';
import { renderWithI18n } from '../expression/_testing/dom';
import { NodeParamsForm, type ParamsNodeType } from './node-params-form';

vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh() {} }) }));

afterEach(cleanup);

function typeOf(name: string): ParamsNodeType {
  const definition = findNodeType(name, 1)!;
  return { type: definition.type, mailboxParams: [], paramsSchema: z.toJSONSchema(definition.params, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown> };
}

function Harness({ emitted }: { emitted: unknown[] }) {
  const [params, setParams] = useState<Record<string, unknown>>({ conditions: [{ left: '{{ trigger.subject }}', operator: 'equals', right: 'x' }] });
  return (
    <NodeParamsForm
      nodeType={typeOf('logic.if')}
      params={params}
      onChange={(next) => {
        emitted.push(next);
        setParams(next);
      }}
    />
  );
}

function operatorSelect(): HTMLSelectElement {
  const frame = screen.getByTestId('node-params-form').querySelector('[data-field-path="conditions[0].operator"]');
  return within(frame as HTMLElement).getByRole('combobox') as HTMLSelectElement;
}

describe('condition operators read as words', () => {
  it.each([
    ['en', ['is equal to', 'is not equal to', 'does not contain', 'is greater than or equal to', 'matches the pattern', 'is not empty']],
    ['fr', ['est égal à', 'n’est pas égal à', 'ne contient pas', 'est supérieur ou égal à', 'correspond au motif', 'n’est pas vide']],
  ] as const)('%s: every operator of the engine is a phrase, none its stored value', (locale, phrases) => {
    renderWithI18n(<Harness emitted={[]} />, locale);
    const texts = [...operatorSelect().options].map((option) => option.textContent);
    for (const phrase of phrases) expect(texts).toContain(phrase);
    for (const operator of conditionOperators) if (operator.includes('_') || operator.length <= 3) expect(texts).not.toContain(operator);
    expect(texts).toHaveLength(conditionOperators.length);
  });

  it('choosing “is not equal to” stores not_equals', () => {
    const emitted: { conditions: { operator: string }[] }[] = [];
    renderWithI18n(<Harness emitted={emitted as unknown[]} />);
    const select = operatorSelect();
    const index = [...select.options].findIndex((option) => option.textContent === 'is not equal to');
    fireEvent.change(select, { target: { value: select.options[index].value } });
    expect(emitted.at(-1)!.conditions[0].operator).toBe('not_equals');
  });
});
