'use client';

import { useEffect, useState, type FormEvent } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError, errorCodeOf, retryAfterOf } from '@/app/lib/errors';
import { formatWait } from '@/app/lib/format';
import { useLogin } from '../_lib/api';
import { Alert } from '@/app/ui/alert';
import { Button } from '@/app/ui/button';
import { Card } from '@/app/ui/card';
import { TextField } from '@/app/ui/field';
import { useFieldErrors } from '@/app/ui/field-errors';
import { loadPageAfterSessionChange } from '@/app/lib/navigation';

/** Seconds left until `until` (epoch ms), ticking every second; 0 when none. */
function useCountdown(until: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!until) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [until]);
  return until ? Math.max(0, Math.ceil((until - now) / 1000)) : 0;
}

export function LoginForm({ brandName, welcome, suspended }: { brandName: string; welcome: string | null; suspended: boolean }) {
  const { t } = useI18n();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { errors: fieldErrors, setErrors: setFieldErrors, clearError } = useFieldErrors<{ email?: string; password?: string }>({});
  const [retryUntil, setRetryUntil] = useState<number | null>(null);
  const waitSeconds = useCountdown(retryUntil);

  const login = useLogin({
    // A full load so every cached query and server component starts from the new session.
    onSuccess: () => loadPageAfterSessionChange('/'),
    onError: (error) => {
      const retryAfter = retryAfterOf(error);
      if (errorCodeOf(error) === 'auth.too_many_attempts' && retryAfter) setRetryUntil(Date.now() + retryAfter * 1000);
    },
  });

  const rateLimited = errorCodeOf(login.error) === 'auth.too_many_attempts';

  function submit(event: FormEvent) {
    event.preventDefault();
    const errors = {
      email: email.trim() ? undefined : t.login.emailRequired,
      password: password ? undefined : t.login.passwordRequired,
    };
    setFieldErrors(errors);
    if (errors.email || errors.password || waitSeconds > 0) return;
    login.mutate({ email: email.trim(), password });
  }

  return (
    <Card className="p-6 sm:p-8">
      <div className="mb-6 space-y-1.5">
        <h1 className="text-xl font-semibold tracking-tight">{t.login.title(brandName)}</h1>
        <p className="text-sm text-muted">{welcome ?? t.login.subtitle}</p>
      </div>

      {suspended ? (
        <Alert tone="warning" testId="login-suspended" live="none" className="mb-5">
          {t.login.suspended}
        </Alert>
      ) : null}

      {login.isError ? (
        rateLimited && retryUntil ? (
          waitSeconds > 0 ? (
            <Alert tone="danger" testId="login-error" className="mb-5">
              {t.login.rateLimited(formatWait(waitSeconds))}
            </Alert>
          ) : (
            <Alert tone="info" testId="login-retry-ready" className="mb-5">
              {t.login.rateLimitOver}
            </Alert>
          )
        ) : (
          <Alert tone="danger" testId="login-error" className="mb-5">
            {describeError(login.error, t)}
          </Alert>
        )
      ) : null}

      {/* method="post": should the script not have loaded, credentials never end up in a URL. */}
      <form onSubmit={submit} method="post" noValidate className="space-y-4">
        <TextField
          label={t.login.email}
          name="email"
          type="email"
          autoComplete="username"
          autoFocus
          required
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            clearError('email');
          }}
          error={fieldErrors.email}
        />
        <TextField
          label={t.login.password}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => {
            setPassword(event.target.value);
            clearError('password');
          }}
          error={fieldErrors.password}
        />
        <Button type="submit" variant="primary" className="w-full" loading={login.isPending || login.isSuccess} disabled={waitSeconds > 0}>
          {login.isPending || login.isSuccess ? t.login.submitting : t.login.submit}
        </Button>
      </form>

      <p className="mt-6 border-t border-line pt-4 text-xs leading-relaxed text-muted">{t.login.invitationHint}</p>
    </Card>
  );
}
