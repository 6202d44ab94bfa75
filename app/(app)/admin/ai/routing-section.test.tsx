// @vitest-environment jsdom
/**
 * Admin → AI models → routing in jsdom over a tRPC client answering from a table of handlers (no server).
 * Saving sends only the purposes changed on the page: the route keeps an absent purpose's choice
 * (the routing's integration test beside server/domains/llm/routing.ts), so a choice another administrator saved meanwhile for
 * another purpose is not put back to what this page read.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeRouter, renderWithTrpc } from '@/app/testing/render-with-trpc';
import { RoutingSection } from './routing-section';

afterEach(cleanup);

const first = { id: '00000000-0000-4000-8000-00000000000a', label: 'First vendor' };
const second = { id: '00000000-0000-4000-8000-00000000000b', label: 'Second vendor' };
const purposes = ['classify', 'compose', 'extract', 'general', 'analyzer', 'assistant'] as const;

function routingView(choices: Partial<Record<(typeof purposes)[number], { connectionId: string; model: string }>>) {
  const routing = Object.fromEntries(purposes.map((purpose) => [purpose, choices[purpose] ?? null]));
  const effective = Object.fromEntries(
    purposes.map((purpose) => [purpose, choices[purpose] ? { ...choices[purpose], provider: 'ai_generic_compatible', source: 'purpose' } : null]),
  );
  return { routing, effective };
}

function renderRouting() {
  const saved: unknown[] = [];
  renderWithTrpc(<RoutingSection />, {
    'llm.admin.getRouting': () => routingView({ classify: { connectionId: first.id, model: 'model-a' } }),
    'llm.admin.list': () => ({ connections: [first, second] }),
    'llm.models': () => ({ restricted: true, models: ['model-a', 'model-b'] }),
    'llm.admin.putRouting': (input) => {
      saved.push(input);
      return routingView({ classify: { connectionId: first.id, model: 'model-a' }, analyzer: { connectionId: second.id, model: 'model-b' } });
    },
  }, { router: fakeRouter() });
  return saved;
}

const rowOf = (purpose: string) => document.querySelector(`[data-testid="ai-routing-row"][data-purpose="${purpose}"]`) as HTMLElement;

describe('RoutingSection', () => {
  it('saves only the purpose the administrator changed, not the choices it read for the others', async () => {
    const saved = renderRouting();
    await screen.findAllByTestId('ai-routing-row');
    await within(rowOf('analyzer')).findByRole('option', { name: second.label });
    fireEvent.change(within(rowOf('analyzer')).getByTestId('ai-routing-connection'), { target: { value: second.id } });
    const model = await within(rowOf('analyzer')).findByRole('option', { name: 'model-b' });
    fireEvent.change(model.closest('select')!, { target: { value: 'model-b' } });
    fireEvent.click(screen.getByTestId('ai-routing-save'));

    await screen.findByTestId('ai-routing-saved');
    expect(saved).toEqual([{ routing: { analyzer: { connectionId: second.id, model: 'model-b' } } }]);
    // The answer is shown, and a second save has nothing left to send.
    await waitFor(() => expect(within(rowOf('analyzer')).getByTestId('ai-routing-effective').textContent).toContain('model-b'));
    fireEvent.click(screen.getByTestId('ai-routing-save'));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(saved[1]).toEqual({ routing: {} });
  });

  it('a purpose set back to none is sent as null, alone', async () => {
    const saved = renderRouting();
    await screen.findAllByTestId('ai-routing-row');
    await within(rowOf('classify')).findByRole('option', { name: first.label });
    fireEvent.change(within(rowOf('classify')).getByTestId('ai-routing-connection'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('ai-routing-save'));
    await waitFor(() => expect(saved).toEqual([{ routing: { classify: null } }]));
  });
});
