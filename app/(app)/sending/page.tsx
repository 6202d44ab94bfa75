import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { SendingJournalView } from './journal-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).sending.metaTitle };
}

export default function SendingJournalPage() {
  return <SendingJournalView />;
}
