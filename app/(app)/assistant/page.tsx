import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { AssistantView } from './assistant-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).assistant.metaTitle };
}

export default function AssistantPage() {
  return <AssistantView />;
}
