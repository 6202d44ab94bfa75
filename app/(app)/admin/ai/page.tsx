import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { AiAdminView } from './ai-admin-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).aiAdmin.metaTitle };
}

export default function AiAdminPage() {
  return <AiAdminView />;
}
