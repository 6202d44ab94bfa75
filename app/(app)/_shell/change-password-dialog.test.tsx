// @vitest-environment jsdom
/**
 * The required password change (issue 19 §7): while `auth/me` says the member signs in with a
 * generated password, the dialog opens by itself and cannot be dismissed (no close button, no
 * Cancel, Escape does nothing) until the password is changed. The server side (the flag, cleared by
 * a change) is server/domains/auth/generated-password.int.test.ts.
 */
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { en } from '@/app/i18n/en';
import type { Member } from '@/app/lib/trpc';
import { RequiredPasswordChange } from './change-password-dialog';
import { renderWithTrpc, type TrpcHandler } from '@/app/testing/render-with-trpc';

vi.mock('next/navigation', () => ({ useRouter: () => ({ refresh() {}, replace() {} }) }));

afterEach(cleanup);

const admin: Member = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'admin@localhost',
  name: 'Administrator',
  role: 'admin',
  status: 'active',
  mailboxCount: 0,
  publishedWorkflowCount: 0,
  createdAt: '2026-12-02T08:00:00.000Z',
};

function renderWith(handlers: Record<string, TrpcHandler>) {
  renderWithTrpc(<RequiredPasswordChange />, handlers);
}

describe('RequiredPasswordChange', () => {
  it('a generated password opens a dialog that cannot be dismissed until the password is changed', async () => {
    let mustChangePassword = true;
    const changes: unknown[] = [];
    renderWith({
      'auth.me': () => ({ member: admin, mustChangePassword }),
      'auth.changePassword': (input) => {
        changes.push(input);
        mustChangePassword = false;
        return { member: admin, sessionsRevoked: 0 };
      },
    });

    const dialog = await screen.findByRole('dialog', { name: en.onboarding.password.title });
    expect(screen.queryByRole('button', { name: en.common.close })).toBeNull();
    expect(screen.queryByRole('button', { name: en.common.cancel })).toBeNull();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.getByRole('dialog', { name: en.onboarding.password.title })).toBeTruthy();

    fireEvent.change(screen.getByLabelText(en.changePassword.current), { target: { value: 'generated-secret-123' } });
    fireEvent.change(screen.getByLabelText(en.changePassword.next), { target: { value: 'my own password' } });
    fireEvent.change(screen.getByLabelText(en.changePassword.confirm), { target: { value: 'my own password' } });
    fireEvent.click(screen.getByRole('button', { name: en.changePassword.submit }));

    fireEvent.click(await screen.findByRole('button', { name: en.common.done }));
    expect(changes).toEqual([{ currentPassword: 'generated-secret-123', newPassword: 'my own password' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('a password the member chose opens nothing', async () => {
    let asked = false;
    renderWith({
      'auth.me': () => {
        asked = true;
        return { member: admin, mustChangePassword: false };
      },
    });
    await waitFor(() => expect(asked).toBe(true));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
