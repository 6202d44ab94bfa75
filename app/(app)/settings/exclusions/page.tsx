import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { ExclusionsView } from './exclusions-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).exclusions.metaTitle };
}

export default function ExclusionsPage() {
  return <ExclusionsView />;
}
