import type { Metadata } from 'next';
import { Suspense } from 'react';
import { getDictionary } from '@/app/i18n/server';
import { LoadingState } from '@/app/ui/states';
import { MailboxHealthPanel } from '../../_health/mailbox-health-panel';
import { MailboxesView } from './mailboxes-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).mailboxes.metaTitle };
}

export default function MailboxesPage() {
  // The view reads the OAuth callback's query (`?connected=`, `?error=`).
  return (
    <Suspense fallback={<LoadingState rows={3} />}>
      <MailboxesView />
      <section className="mt-8">
        <MailboxHealthPanel />
      </section>
    </Suspense>
  );
}
