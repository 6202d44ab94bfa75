import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { SupportThreadView } from './thread-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).support.thread.metaTitle };
}

export default async function SupportThreadPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <SupportThreadView id={decodeURIComponent(id)} />;
}
