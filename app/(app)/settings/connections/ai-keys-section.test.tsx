// @vitest-environment jsdom
/**
 * My AI keys (Settings → Connections) in jsdom, over a tRPC client whose link answers from a table of
 * handlers (no server): hidden when the instance does not allow members' keys, the list with the
 * key's hint only, adding with the fields the provider needs and server refusals at their field,
 * testing and deleting.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AiKeysSection } from './ai-keys-section';
import type { AiKey, MemberKeysSettings } from './_lib/api';
import { renderWithTrpc, trpcAppError, type TrpcHandler } from '@/app/testing/render-with-trpc';

vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh() {} }) }));

afterEach(cleanup);

const settings: MemberKeysSettings = {
  allowed: true,
  providers: [
    { provider: 'ai_vendor_a', apiKey: 'required', baseUrl: 'optional' },
    { provider: 'ai_local', apiKey: 'optional', baseUrl: 'optional' },
    { provider: 'ai_generic_compatible', apiKey: 'optional', baseUrl: 'required' },
  ],
};

const key: AiKey = {
  id: '00000000-0000-4000-8000-000000000001',
  type: 'llm_provider',
  name: 'My vendor A key',
  scope: 'member',
  integration: 'ai_vendor_a',
  hint: '7788',
  createdAt: '2026-11-24T10:00:00.000Z',
  updatedAt: '2026-11-24T10:00:00.000Z',
};

const appError = trpcAppError;

function renderSection(handlers: Record<string, TrpcHandler>, options: { settings?: MemberKeysSettings; locale?: 'en' | 'fr' } = {}) {
  return renderWithTrpc(<AiKeysSection settings={options.settings ?? settings} />, handlers, { locale: options.locale ?? 'en' });
}

describe('AiKeysSection', () => {
  it('renders nothing when the instance does not allow members’ keys, and asks for nothing', () => {
    const calls = renderSection({}, { settings: { ...settings, allowed: false } });
    expect(screen.queryByTestId('ai-keys')).toBeNull();
    expect(calls).toEqual([]);
  });

  it('lists the member’s keys with the provider and the key’s last four characters only', async () => {
    const calls = renderSection({ 'connections.list': () => ({ items: [key, { ...key, id: '00000000-0000-4000-8000-000000000002', scope: 'org', name: 'Shared' }] }) });
    const row = await screen.findByTestId('ai-key-row');
    expect(within(row).getByText('My vendor A key')).toBeTruthy();
    expect(within(row).getByText('OpenAI')).toBeTruthy();
    expect(within(row).getByTestId('ai-key-hint').textContent).toBe('••••7788');
    expect(screen.getAllByTestId('ai-key-row')).toHaveLength(1);
    expect(calls[0]).toEqual({ path: 'connections.list', input: { type: 'llm_provider' } });
  });

  it('says so when there is no key yet, in French too', async () => {
    renderSection({ 'connections.list': () => ({ items: [] }) }, { locale: 'fr' });
    expect((await screen.findByTestId('ai-keys-empty')).textContent).toContain('Aucune clé d’IA');
    expect(screen.getByText('Mes clés d’IA')).toBeTruthy();
  });

  it('adds a key with the fields the provider needs; the base URL becomes required for a compatible server', async () => {
    let created: unknown = null;
    const calls = renderSection({
      'connections.list': () => ({ items: [] }),
      'connections.create': (input) => {
        created = input;
        return { id: '00000000-0000-4000-8000-000000000003' };
      },
    });
    fireEvent.click(await screen.findByTestId('ai-key-add'));
    const form = await screen.findByTestId('ai-key-form');
    // A vendor needs its key and a label.
    fireEvent.submit(form);
    expect(await within(form).findByText('Enter a label.')).toBeTruthy();
    expect(within(form).getByText('Enter the key.')).toBeTruthy();
    // A compatible server: the key is optional, the base URL required.
    fireEvent.change(within(form).getByLabelText('Provider'), { target: { value: 'ai_generic_compatible' } });
    fireEvent.change(within(form).getByLabelText('Label'), { target: { value: ' Home server ' } });
    fireEvent.submit(form);
    expect(await within(form).findByText('This provider needs a base URL.')).toBeTruthy();
    expect(calls.some((item) => item.path === 'connections.create')).toBe(false);
    fireEvent.change(within(form).getByLabelText(/Base URL/), { target: { value: 'https://models.example.com/v1' } });
    fireEvent.submit(form);
    await waitFor(() => expect(created).toEqual({ type: 'llm_provider', name: 'Home server', scope: 'member', data: { provider: 'ai_generic_compatible', baseUrl: 'https://models.example.com/v1' } }));
    await waitFor(() => expect(screen.queryByTestId('ai-key-form')).toBeNull());
  });

  it('sends the key once and shows a server refusal of the base URL at its field', async () => {
    let created: { data?: Record<string, unknown> } | null = null;
    renderSection({
      'connections.list': () => ({ items: [] }),
      'connections.create': (input) => {
        created = input as typeof created;
        throw appError('llm.invalid_base_url', { reason: 'blocked_address' });
      },
    });
    fireEvent.click(await screen.findByTestId('ai-key-add'));
    const form = await screen.findByTestId('ai-key-form');
    fireEvent.change(within(form).getByLabelText('Label'), { target: { value: 'Mine' } });
    const keyInput = within(form).getByLabelText<HTMLInputElement>(/API key/);
    expect(keyInput.type).toBe('password');
    fireEvent.change(keyInput, { target: { value: 'sk-secret-1234' } });
    fireEvent.change(within(form).getByLabelText(/Base URL/), { target: { value: 'http://10.0.0.5/v1' } });
    fireEvent.submit(form);
    expect(await within(form).findByText('This address is on a private or reserved network; this instance does not connect to it.')).toBeTruthy();
    expect(created).toMatchObject({ data: { provider: 'ai_vendor_a', apiKey: 'sk-secret-1234', baseUrl: 'http://10.0.0.5/v1' } });
  });

  it('tests a key and shows what happened; a failure shows our message', async () => {
    let answer: unknown = { ok: true, modelCount: 12, latencyMs: 140 };
    const calls = renderSection({ 'connections.list': () => ({ items: [key] }), 'connections.test': () => answer });
    fireEvent.click(await screen.findByRole('button', { name: 'Test AI key My vendor A key' }));
    expect((await screen.findByTestId('ai-key-test-result')).textContent).toBe('Works: 12 models listed in 140 ms.');
    expect(calls.find((item) => item.path === 'connections.test')?.input).toEqual({ id: key.id });
    answer = { ok: false, code: 'auth', message: 'The provider refused the API key.' };
    fireEvent.click(screen.getByRole('button', { name: 'Test AI key My vendor A key' }));
    await waitFor(() => expect(screen.getByTestId('ai-key-test-result').textContent).toBe('Does not work: The provider refused the API key.'));
  });

  it('deletes a key after confirmation', async () => {
    let deleted: unknown = null;
    renderSection({
      'connections.list': () => ({ items: deleted ? [] : [key] }),
      'connections.delete': (input) => {
        deleted = input;
        return { id: key.id, deleted: true };
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete AI key My vendor A key' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete key' }));
    await waitFor(() => expect(deleted).toEqual({ id: key.id }));
    expect(await screen.findByTestId('ai-keys-empty')).toBeTruthy();
  });
});
