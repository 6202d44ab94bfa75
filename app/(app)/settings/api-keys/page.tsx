import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { ApiKeysView } from './api-keys-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).apiKeys.metaTitle };
}

export default function ApiKeysPage() {
  return <ApiKeysView />;
}
