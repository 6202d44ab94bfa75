import type { Metadata } from 'next';
import { Suspense } from 'react';
import { getDictionary } from '@/app/i18n/server';
import { LoadingState } from '@/app/ui/states';
import { ConnectionsView } from './connections-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).connections.metaTitle };
}

export default function ConnectionsPage() {
  // The view reads the OAuth callback's query (`?connected=`, `?error=`).
  return (
    <Suspense fallback={<LoadingState rows={3} />}>
      <ConnectionsView />
    </Suspense>
  );
}
