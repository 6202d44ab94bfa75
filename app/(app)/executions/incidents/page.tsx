import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { IncidentsView } from './incidents-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).executions.incidents.metaTitle };
}

export default function IncidentsPage() {
  return <IncidentsView />;
}
