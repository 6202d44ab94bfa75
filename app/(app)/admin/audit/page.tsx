import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { AuditView } from './audit-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).audit.metaTitle };
}

export default function AuditPage() {
  return <AuditView />;
}
