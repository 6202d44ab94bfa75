import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { TableView } from './table-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).tables.metaTitle };
}

export default async function TablePage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  return <TableView tableRef={decodeURIComponent(slug)} />;
}
