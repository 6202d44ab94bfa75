import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { ExecutionView } from './execution-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).executions.metaTitle };
}

export default async function ExecutionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ExecutionView id={decodeURIComponent(id)} />;
}
