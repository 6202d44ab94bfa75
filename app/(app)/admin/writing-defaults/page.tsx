import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { WritingDefaultsView } from './writing-defaults-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).contacts.defaults.organisation.metaTitle };
}

export default function WritingDefaultsPage() {
  return <WritingDefaultsView />;
}
