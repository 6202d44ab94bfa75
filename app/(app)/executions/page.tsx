import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { ExecutionsView } from './executions-view';
import { filtersFromSearch } from './_lib/filters';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).executions.metaTitle };
}

export default async function ExecutionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  return <ExecutionsView initialFilters={filtersFromSearch(await searchParams)} />;
}
