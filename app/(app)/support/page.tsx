import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { SupportView } from './support-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).support.metaTitle };
}

export default function SupportPage() {
  return <SupportView />;
}
