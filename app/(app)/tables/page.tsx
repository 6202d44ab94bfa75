import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { TablesView } from './tables-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).tables.metaTitle };
}

export default function TablesPage() {
  return <TablesView />;
}
