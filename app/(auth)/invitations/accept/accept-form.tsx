'use client';

import Link from 'next/link';
import { useEffect, useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError, errorCodeOf } from '@/app/lib/errors';
import { useAcceptInvitation } from '../../_lib/api';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { Card } from '@/app/ui/card';
import { TextField } from '@/app/ui/field';
import { Spinner } from '@/app/ui/spinner';
import { useFieldErrors } from '@/app/ui/field-errors';
import { loadPageAfterSessionChange } from '@/app/lib/navigation';

const passwordBounds = { min: 10, max: 200 };

function tokenFromFragment(): string | null {
  const token = new URLSearchParams(window.location.hash.replace(/^#/, '')).get('token');
  return token && token.trim() ? token.trim() : null;
}

interface FormErrors {
  name?: string;
  password?: string;
  confirm?: string;
}

export function AcceptInvitationForm({ brandName }: { brandName: string }) {
  const { t } = useI18n();
  // undefined until the fragment has been read (it only exists in the browser).
  const [token, setToken] = useState<string | null | undefined>(undefined);
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { errors, setErrors, clearError } = useFieldErrors<FormErrors>({});

  useEffect(() => {
    const read = () => setToken(tokenFromFragment());
    read();
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  }, []);

  const accept = useAcceptInvitation(() => loadPageAfterSessionChange('/'));

  function submit(event: FormEvent) {
    event.preventDefault();
    const next: FormErrors = {
      name: name.trim() ? undefined : t.accept.nameRequired,
      password:
        password.length < passwordBounds.min ? t.passwords.tooShort : password.length > passwordBounds.max ? t.passwords.tooLong : undefined,
      confirm: confirm === password ? undefined : t.passwords.mismatch,
    };
    setErrors(next);
    if (next.name || next.password || next.confirm || !token) return;
    accept.mutate({ token, name: name.trim(), password });
  }

  if (token === undefined) {
    return (
      <Card className="flex items-center justify-center p-10 text-muted">
        <Spinner />
        <span className="sr-only">{t.common.loading}</span>
      </Card>
    );
  }

  const unusable = errorCodeOf(accept.error) === 'request.not_found';
  if (!token || unusable) {
    const copy = token ? t.accept.invalid : t.accept.noToken;
    return (
      <Card className="space-y-5 p-6 sm:p-8">
        <Alert tone="warning" testId={token ? 'invitation-invalid' : 'invitation-missing-token'} title={copy.title} live="alert">
          {copy.body}
        </Alert>
        <p className="text-sm text-muted">
          {t.accept.haveAccount}{' '}
          <Link href="/login" className="rounded-sm font-medium text-brand-fg hover:underline">
            {t.accept.signIn}
          </Link>
        </p>
      </Card>
    );
  }

  return (
    <Card className="p-6 sm:p-8">
      <div className="mb-6 space-y-1.5">
        <h1 className="text-xl font-semibold tracking-tight">{t.accept.title}</h1>
        <p className="text-sm text-muted">{t.accept.subtitle(brandName)}</p>
      </div>

      {accept.isError ? (
        <Alert tone="danger" testId="accept-error" className="mb-5">
          {describeError(accept.error, t)}
        </Alert>
      ) : null}

      <form onSubmit={submit} method="post" noValidate className="space-y-4">
        <TextField
          label={t.accept.name}
          name="name"
          autoComplete="name"
          autoFocus
          maxLength={120}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            clearError('name');
          }}
          error={errors.name}
        />
        <TextField
          label={t.accept.password}
          name="password"
          type="password"
          autoComplete="new-password"
          maxLength={passwordBounds.max}
          hint={t.passwords.hint}
          value={password}
          onChange={(event) => {
            setPassword(event.target.value);
            clearError('password');
          }}
          error={errors.password}
        />
        <TextField
          label={t.accept.confirm}
          name="confirm"
          type="password"
          autoComplete="new-password"
          maxLength={passwordBounds.max}
          value={confirm}
          onChange={(event) => {
            setConfirm(event.target.value);
            clearError('confirm');
          }}
          error={errors.confirm}
        />
        <Button type="submit" variant="primary" className="w-full" loading={accept.isPending || accept.isSuccess}>
          {accept.isPending || accept.isSuccess ? t.accept.submitting : t.accept.submit}
        </Button>
      </form>

      <p className="mt-6 border-t border-line pt-4 text-sm text-muted">
        {t.accept.haveAccount}{' '}
        <Link href="/login" className="rounded-sm font-medium text-brand-fg hover:underline">
          {t.accept.signIn}
        </Link>
      </p>
    </Card>
  );
}
