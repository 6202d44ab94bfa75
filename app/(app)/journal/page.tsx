import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { JournalView } from './journal-view';
import { journalFiltersFromSearch } from './_lib/filters';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).journal.metaTitle };
}

export default async function JournalPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  return <JournalView initialFilters={journalFiltersFromSearch(await searchParams)} />;
}
