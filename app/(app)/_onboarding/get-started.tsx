'use client';

/**
 * The "Get started" list of the home page (issue 19 §7): connect a mailbox, try a template on your
 * mail, publish a workflow and, for administrators, invite the team. Each step ticks itself from
 * GET /api/v1/me/onboarding (what exists on the server, whichever screen or API did it), links to
 * where it is done, and the list can be hidden; once every step is done it says so and can be
 * dismissed. Hidden/dismissed is remembered in this browser per member: it is a preference of the
 * screen, not a fact the API answers. A self-contained card, so the dashboard (issue 20) can host it.
 */
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { Alert } from '@/app/ui/alert';
import { Button, buttonClasses } from '@/app/ui/button';
import { Card } from '@/app/ui/card';
import { cn } from '@/app/ui/cn';
import { CheckCircleIcon, CloseIcon } from '@/app/ui/icons';
import { ProgressBar } from '@/app/ui/progress';
import { useMe } from '../_shell/_lib/api';
import { useOnboardingStatus } from './_lib/api';

type StepKey = 'mailbox' | 'template' | 'publish' | 'invite';

/** Where each step is done. */
export const stepLinks: Record<StepKey, string> = {
  mailbox: '/settings/mailboxes',
  template: '/templates',
  publish: '/workflows',
  invite: '/admin/members',
};

const storageKey = (memberId: string) => `mailflow:onboarding:${memberId}:hidden`;

/** Hidden in this browser for this member (read after mount: the server render knows no storage). */
function useHidden(memberId: string | undefined) {
  const [hidden, setHidden] = useState<boolean | null>(null);
  useEffect(() => {
    if (!memberId) return;
    try {
      setHidden(window.localStorage.getItem(storageKey(memberId)) === '1');
    } catch {
      setHidden(false);
    }
  }, [memberId]);
  const update = (next: boolean) => {
    setHidden(next);
    if (!memberId) return;
    try {
      if (next) window.localStorage.setItem(storageKey(memberId), '1');
      else window.localStorage.removeItem(storageKey(memberId));
    } catch {
      // private mode: hidden for this visit only
    }
  };
  return [hidden, update] as const;
}

export function GetStarted() {
  const { t } = useI18n();
  const texts = t.onboarding.getStarted;
  const me = useMe();
  // Always read again when the page is shown: the steps are done on other pages.
  const status = useOnboardingStatus();
  const [hidden, setHidden] = useHidden(me.data?.id);

  if (hidden === null || (!status.data && !status.isError)) return null;
  if (status.isError) {
    return (
      <Alert tone="danger" testId="get-started-error" className="mb-6">
        {texts.loadError}
      </Alert>
    );
  }
  const facts = status.data!;
  const steps: { key: StepKey; done: boolean }[] = [
    { key: 'mailbox', done: facts.mailboxConnected },
    { key: 'template', done: facts.templateTried },
    { key: 'publish', done: facts.workflowPublished },
    ...(facts.teamInvited === null ? [] : [{ key: 'invite' as const, done: facts.teamInvited }]),
  ];
  const doneCount = steps.filter((step) => step.done).length;

  if (hidden) {
    if (facts.complete) return null;
    return (
      <div className="mb-6">
        <Button size="sm" variant="ghost" onClick={() => setHidden(false)}>
          {texts.show}
        </Button>
      </div>
    );
  }

  return (
    <Card className="mb-6 p-5" data-testid="get-started">
      <section aria-labelledby="get-started-title">
        <div className="flex items-start justify-between gap-4">
          <div className="space-y-1">
            <h2 id="get-started-title" className="text-base font-semibold tracking-tight">
              {texts.title}
            </h2>
            <p className="text-sm text-muted">{facts.complete ? texts.allDone : texts.description}</p>
          </div>
          <Button size="sm" variant="ghost" onClick={() => setHidden(true)} aria-label={facts.complete ? undefined : texts.hideLabel}>
            {facts.complete ? texts.dismiss : texts.hide}
            {facts.complete ? null : <CloseIcon size={14} />}
          </Button>
        </div>
        <div className="mt-4 flex items-center gap-3">
          <ProgressBar value={(doneCount / steps.length) * 100} label={texts.progress(doneCount, steps.length)} className="max-w-48" />
          <span className="text-xs text-muted">{texts.progress(doneCount, steps.length)}</span>
        </div>
        <ol className="mt-4 divide-y divide-line">
          {steps.map((step) => {
            const text = texts.steps[step.key];
            return (
              <li key={step.key} className="flex items-center gap-3 py-3" data-testid={`get-started-${step.key}`} data-done={step.done}>
                <span className={cn('flex size-6 shrink-0 items-center justify-center rounded-full', step.done ? 'text-brand-fg' : 'border border-line-strong')}>
                  {step.done ? <CheckCircleIcon size={20} /> : null}
                </span>
                <span className="min-w-0 flex-1">
                  <span className={cn('block text-sm font-medium', step.done && 'text-muted line-through')}>{text.label}</span>
                  <span className="block text-xs text-muted">{text.hint}</span>
                </span>
                <span className="sr-only">{step.done ? texts.done : texts.todo}</span>
                {step.done ? null : (
                  <Link href={stepLinks[step.key]} className={buttonClasses('secondary', 'sm')}>
                    {text.action}
                  </Link>
                )}
              </li>
            );
          })}
        </ol>
      </section>
    </Card>
  );
}
