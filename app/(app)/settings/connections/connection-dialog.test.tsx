// @vitest-environment jsdom
/**
 * The connection form's allowed hosts (Settings → Connections) in jsdom, over a tRPC client whose
 * link answers from a table of handlers (no server): required for the organisation's connections,
 * checked with the service's rules at the field in English and French, sent normalised by the service.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeRouter, renderWithTrpc, type TrpcHandler } from '@/app/testing/render-with-trpc';
import type { Connection } from '@/app/lib/mail-types';
import { ConnectionDialog } from './connection-dialog';


afterEach(cleanup);

function renderDialog(handlers: Record<string, TrpcHandler>, options: { existing?: Connection | null; isAdmin?: boolean; locale?: 'en' | 'fr' } = {}) {
  const onOpenChange = vi.fn();
  const calls = renderWithTrpc(<ConnectionDialog open existing={options.existing ?? null} isAdmin={options.isAdmin ?? false} onOpenChange={onOpenChange} />, handlers, { locale: options.locale, router: fakeRouter() });
  return { calls, onOpenChange };
}

function form() {
  return screen.getByRole('dialog');
}

function fill(label: string | RegExp, value: string) {
  fireEvent.change(within(form()).getByLabelText(label), { target: { value } });
}

function submit() {
  fireEvent.submit(within(form()).getByRole('button', { name: /Create connection|Save|Créer la connexion/ }).closest('form')!);
}

describe('ConnectionDialog: allowed hosts', () => {
  it('connection hosts in the form: an organisation connection needs its hosts, each checked at the field, then sent', async () => {
    let created: unknown = null;
    const { calls } = renderDialog({ 'connections.create': (input) => ((created = input), { id: '00000000-0000-4000-8000-000000000009' }) }, { isAdmin: true });
    fill('Name', 'Billing API');
    fireEvent.change(within(form()).getByLabelText('Who can use it'), { target: { value: 'org' } });
    fill('Token', 'tok-1');
    submit();
    expect(await within(form()).findByText('List at least one host: a shared connection is sent only to the hosts named here.')).toBeTruthy();
    fill(/Allowed hosts/, 'api.example.com\n*.example.com');
    submit();
    expect(await within(form()).findByText('“*.example.com”: wildcards are not allowed, list each host.')).toBeTruthy();
    fill(/Allowed hosts/, 'api.example.com/v1');
    submit();
    expect(await within(form()).findByText('“api.example.com/v1”: a host only (with a port or as https://host if needed), no path, query or user name.')).toBeTruthy();
    expect(calls.some((call) => call.path === 'connections.create')).toBe(false);
    fill(/Allowed hosts/, 'API.example.com\nhttps://billing.example.com, 127.0.0.1:8443');
    submit();
    await waitFor(() =>
      expect(created).toEqual({
        type: 'http_generic',
        name: 'Billing API',
        scope: 'org',
        data: { kind: 'bearer', token: 'tok-1' },
        allowedHosts: ['API.example.com', 'https://billing.example.com', '127.0.0.1:8443'],
      }),
    );
  });

  it('a member’s own connection may leave them empty (bound at first use): nothing is sent for them', async () => {
    let created: Record<string, unknown> | null = null;
    renderDialog({ 'connections.create': (input) => ((created = input as Record<string, unknown>), { id: '00000000-0000-4000-8000-000000000009' }) });
    expect(within(form()).getByText(/Leave empty to bind it to the first host a run sends it to/)).toBeTruthy();
    fill('Name', 'Mine');
    fill('Token', 'tok-2');
    submit();
    await waitFor(() => expect(created).toEqual({ type: 'http_generic', name: 'Mine', scope: 'member', data: { kind: 'bearer', token: 'tok-2' } }));
  });

  it('says it in French', async () => {
    renderDialog({}, { isAdmin: true, locale: 'fr' });
    fill('Nom', 'API');
    fireEvent.change(within(form()).getByLabelText('Qui peut l’utiliser'), { target: { value: 'org' } });
    fill('Jeton', 'tok');
    fill(/Hôtes autorisés/, 'ftp://files.example.com');
    submit();
    await waitFor(() => expect(form().textContent).toContain('«\u00a0ftp://files.example.com\u00a0»\u00a0: http et https seulement.'));
  });

  it('editing shows the connection’s hosts and sends the new ones; an organisation connection without hosts must get some', async () => {
    let updated: unknown = null;
    const existing: Connection = { id: '00000000-0000-4000-8000-000000000007', type: 'http_generic', name: 'Old', scope: 'org', kind: 'bearer', createdAt: '2026-11-24T10:00:00.000Z', updatedAt: '2026-11-24T10:00:00.000Z' };
    renderDialog({ 'connections.update': (input) => ((updated = input), { credential: existing }) }, { isAdmin: true, existing });
    submit();
    expect(await within(form()).findByText('List at least one host: a shared connection is sent only to the hosts named here.')).toBeTruthy();
    fill(/Allowed hosts/, 'api.example.com');
    submit();
    await waitFor(() => expect(updated).toEqual({ id: existing.id, name: 'Old', allowedHosts: ['api.example.com'] }));
  });

  it('shows the hosts already set when editing', () => {
    const existing: Connection = { id: '00000000-0000-4000-8000-000000000008', type: 'http_generic', name: 'Set', scope: 'member', kind: 'bearer', allowedHosts: ['a.example.com', 'b.example.com:8443'], createdAt: '2026-11-24T10:00:00.000Z', updatedAt: '2026-11-24T10:00:00.000Z' };
    renderDialog({}, { existing });
    expect(within(form()).getByLabelText<HTMLTextAreaElement>(/Allowed hosts/).value).toBe('a.example.com\nb.example.com:8443');
  });
});
