import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { TemplatesView } from './templates-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).templates.metaTitle };
}

export default function TemplatesPage() {
  return <TemplatesView />;
}
