// @vitest-environment jsdom
/**
 * The editor's parameter help follows the interface language (issue 19 §6: French showed English
 * help): the form fed what GET /api/v1/node-types?lang=fr serves shows each field's French help.
 */
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listNodeTypes } from '@/server/domains/node-types/service';
import { paramHelpFr } from '@/server/engine/nodes/param-help-fr';
import { renderWithI18n } from '../../_components/expression/_testing/dom';
import { NodeParamsForm } from '../../_components/params/node-params-form';

vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh() {} }) }));

afterEach(cleanup);

function typeIn(lang: 'en' | 'fr', type: string) {
  const found = listNodeTypes({ lang }).nodeTypes.find((entry) => entry.type === type);
  if (!found) throw new Error(`no node type ${type}`);
  return found;
}

describe('parameter help in the editor', () => {
  it.each([
    ['logic.if', { conditions: [{ left: '{{ trigger.subject }}', operator: 'contains', right: 'facture' }] }, ['The conditions (1-50).', 'How to compare `left` with `right`.']],
    ['mail.move', { folder: 'archive' }, ['The target folder: its key, or a role name (inbox, archive, trash, spam, …).']],
  ] as const)('Node parameter help is translated: %s shows its help in French when the locale is fr', (type, params, englishHelp) => {
    renderWithI18n(<NodeParamsForm nodeType={typeIn('fr', type)} params={params} onChange={() => {}} />, 'fr');
    for (const english of englishHelp) {
      const french = paramHelpFr.get(english)!;
      // The hint renders backticked words as code: compare the text without the backticks.
      expect(screen.getAllByText((_content, element) => element?.textContent === french.replaceAll('`', '') && element.tagName !== 'CODE').length).toBeGreaterThan(0);
      expect(screen.queryAllByText((_content, element) => element?.textContent === english.replaceAll('`', ''))).toEqual([]);
    }
  });

  it('shows the English help when the locale is en', () => {
    renderWithI18n(<NodeParamsForm nodeType={typeIn('en', 'mail.move')} params={{ folder: 'archive' }} onChange={() => {}} />, 'en');
    expect(screen.getByText('The target folder: its key, or a role name (inbox, archive, trash, spam, …).')).toBeTruthy();
  });
});
