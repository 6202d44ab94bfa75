/**
 * The diff view rendered to markup (no DOM needed: it has no effects): each kind of difference gets
 * its test id, colour tone and before → after text; identical graphs show the empty state; moves are
 * folded unless asked for. Both dictionaries render.
 */
import { createElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { AppRouterContext } from 'next/dist/shared/lib/app-router-context.shared-runtime';
import { describe, expect, it } from 'vitest';
import { I18nProvider } from '@/app/i18n/client';
import type { Locale } from '@/app/i18n';
import { diffGraphs } from '../../_lib/graph-diff';
import { GraphDiffView } from './graph-diff-view';

const router = { back() {}, forward() {}, refresh() {}, push() {}, replace() {}, prefetch() {} };

function render(element: ReactNode, locale: Locale = 'en'): string {
  return renderToStaticMarkup(
    createElement(AppRouterContext.Provider, { value: router as never }, createElement(I18nProvider, { initialLocale: locale, children: element })),
  );
}

const node = (id: string, extra: Record<string, unknown> = {}) => ({ id, type: 'data.set', version: 1, name: `Node ${id}`, params: {}, position: { x: 0, y: 0 }, ...extra });

const before = {
  nodes: [node('start', { type: 'trigger.webhook', name: 'Incoming' }), node('tidy', { params: { fields: [{ name: 'ok', value: true }] } }), node('old', { name: 'Old step' })],
  connections: [
    { from: 'start', to: 'tidy' },
    { from: 'tidy', to: 'old' },
  ],
  notes: [{ id: 'n1', text: 'Remember the invoices' }],
};
const after = {
  nodes: [
    node('start', { type: 'trigger.webhook', name: 'Incoming' }),
    node('tidy', { params: { fields: [{ name: 'ok', value: false }] }, onError: 'continue' }),
    node('mail', { type: 'mail.draft', name: 'Draft reply' }),
  ],
  connections: [
    { from: 'start', to: 'tidy' },
    { from: 'tidy', to: 'mail' },
  ],
  notes: [{ id: 'n2', text: 'A new note', color: 'rose' }],
};

const count = (html: string, testId: string) => html.split(`data-testid="${testId}"`).length - 1;

describe('GraphDiffView', () => {
  it('shows added nodes green, removed red, changed amber with their parameters before → after', () => {
    const html = render(createElement(GraphDiffView, { diff: diffGraphs(before, after) }));
    expect(count(html, 'graph-diff')).toBe(1);
    expect(html).toContain('data-empty="false"');
    expect(count(html, 'diff-node-added')).toBe(1);
    expect(count(html, 'diff-node-removed')).toBe(1);
    expect(count(html, 'diff-node-changed')).toBe(1);
    expect(html).toMatch(/data-testid="diff-node-added" data-tone="added" class="[^"]*emerald/);
    expect(html).toMatch(/data-testid="diff-node-removed" data-tone="removed" class="[^"]*red/);
    expect(html).toMatch(/data-testid="diff-node-changed" data-tone="changed" class="[^"]*amber/);
    expect(html).toContain('Draft reply');
    expect(html).toContain('mail.draft@1');
    expect(html).toContain('Old step');
    // The parameter leaf and the onError field, before and after.
    expect(html).toContain('fields[0].value');
    expect(html).toContain('>true</code>');
    expect(html).toContain('>false</code>');
    expect(html).toContain('On error');
    // Fields read as plain text, parameters as JSON.
    expect(html).toContain('>fail</code>');
    expect(html).toContain('>continue</code>');
    // Connections by node names, notes by their text.
    expect(count(html, 'diff-connection-added')).toBe(1);
    expect(count(html, 'diff-connection-removed')).toBe(1);
    expect(html).toContain('A new note');
    expect(html).toContain('Remember the invoices');
  });

  it('shows "No differences" for identical graphs', () => {
    const html = render(createElement(GraphDiffView, { diff: diffGraphs(before, structuredClone(before)) }));
    expect(html).toContain('data-empty="true"');
    expect(html).toContain('No differences');
    expect(count(html, 'diff-node-changed')).toBe(0);
  });

  it('folds nodes that only moved, unless showMoves', () => {
    const moved = { ...before, nodes: before.nodes.map((item) => ({ ...item, position: { x: 500, y: 80 } })) };
    const folded = render(createElement(GraphDiffView, { diff: diffGraphs(before, moved) }));
    expect(folded).toContain('No differences');
    expect(folded).toContain('3 nodes or notes moved');
    const shown = render(createElement(GraphDiffView, { diff: diffGraphs(before, moved), showMoves: true }));
    expect(count(shown, 'diff-node-changed')).toBe(3);
    expect(shown).toContain('(moved)');
  });

  it('renders in French', () => {
    expect(render(createElement(GraphDiffView, { diff: diffGraphs(before, before) }), 'fr')).toContain('Aucune différence');
    const html = render(createElement(GraphDiffView, { diff: diffGraphs(before, after) }), 'fr');
    expect(html).toContain('En cas d’erreur');
    expect(html).toContain('Nœuds');
  });
});
