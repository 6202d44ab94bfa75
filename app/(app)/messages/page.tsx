import type { Metadata } from 'next';
import { Suspense } from 'react';
import { getDictionary } from '@/app/i18n/server';
import { LoadingState } from '@/app/ui/states';
import { Webmail } from './webmail';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).webmail.metaTitle };
}

export default function MessagesPage() {
  // The webmail keeps its place (mailbox, folder, open thread) in the query string.
  return (
    <Suspense fallback={<LoadingState rows={6} />}>
      <Webmail />
    </Suspense>
  );
}
