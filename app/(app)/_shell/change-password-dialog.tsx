'use client';

import { useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter, DialogForm } from '@/app/ui/dialog';
import { TextField } from '@/app/ui/field';
import { useFieldErrors } from '@/app/ui/field-errors';
import { useChangePassword, useMeAnswer, useRefreshMe } from './_lib/api';

const bounds = { min: 10, max: 200 };

interface Errors {
  current?: string;
  next?: string;
  confirm?: string;
}

/** `required`: the member signs in with a generated password; no way out but changing it. */
function PasswordForm({ onDone, required }: { onDone: () => void; required: boolean }) {
  const { t } = useI18n();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const { errors, setErrors, clearError } = useFieldErrors<Errors>({});
  const change = useChangePassword();

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: Errors = {
      current: current ? undefined : t.login.passwordRequired,
      next: next.length < bounds.min ? t.passwords.tooShort : next.length > bounds.max ? t.passwords.tooLong : undefined,
      confirm: confirm === next ? undefined : t.passwords.mismatch,
    };
    setErrors(found);
    if (found.current || found.next || found.confirm) return;
    change.mutate({ currentPassword: current, newPassword: next });
  }

  if (change.isSuccess) {
    return (
      <>
        <DialogBody>
          <Alert tone="success" testId="password-changed">
            {t.changePassword.success(change.data.sessionsRevoked)}
          </Alert>
        </DialogBody>
        <DialogFooter>
          <Button variant="primary" onClick={onDone}>
            {t.common.done}
          </Button>
        </DialogFooter>
      </>
    );
  }

  return (
    <DialogForm onSubmit={submit}>
      <DialogBody className="space-y-4">
        {change.isError ? (
          <Alert tone="danger" testId="change-password-error">
            {describeError(change.error, t)}
          </Alert>
        ) : null}
        <TextField
          label={t.changePassword.current}
          type="password"
          autoComplete="current-password"
          autoFocus
          value={current}
          onChange={(event) => {
            setCurrent(event.target.value);
            clearError('current');
          }}
          error={errors.current}
        />
        <TextField
          label={t.changePassword.next}
          type="password"
          autoComplete="new-password"
          hint={t.passwords.hint}
          maxLength={bounds.max}
          value={next}
          onChange={(event) => {
            setNext(event.target.value);
            clearError('next');
          }}
          error={errors.next}
        />
        <TextField
          label={t.changePassword.confirm}
          type="password"
          autoComplete="new-password"
          maxLength={bounds.max}
          value={confirm}
          onChange={(event) => {
            setConfirm(event.target.value);
            clearError('confirm');
          }}
          error={errors.confirm}
        />
      </DialogBody>
      <DialogFooter>
        {required ? null : (
          <DialogClose asChild>
            <Button>{t.common.cancel}</Button>
          </DialogClose>
        )}
        <Button type="submit" variant="primary" loading={change.isPending}>
          {change.isPending ? t.changePassword.submitting : t.changePassword.submit}
        </Button>
      </DialogFooter>
    </DialogForm>
  );
}

export function ChangePasswordDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useI18n();
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={t.changePassword.title} description={t.changePassword.description} size="sm">
        {/* Mounted only while open, so each opening starts from an empty form. */}
        {open ? <PasswordForm required={false} onDone={() => onOpenChange(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

/**
 * Opens by itself while `auth/me` says the member still signs in with a generated password (the
 * first administrator's when ADMIN_PASSWORD was not set), and cannot be closed until the password
 * is changed: the server clears the flag, and "Done" reads `auth/me` again.
 */
export function RequiredPasswordChange() {
  const { t } = useI18n();
  const refreshMe = useRefreshMe();
  const me = useMeAnswer();
  const open = me.data?.mustChangePassword === true;
  return (
    <Dialog open={open}>
      <DialogContent title={t.onboarding.password.title} description={t.onboarding.password.description} size="sm" dismissible={false}>
        {open ? <PasswordForm required onDone={refreshMe} /> : null}
      </DialogContent>
    </Dialog>
  );
}
