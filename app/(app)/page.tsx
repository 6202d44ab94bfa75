import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { ComingSoon } from './_shell/coming-soon';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).sections.dashboard.title };
}

export default function DashboardPage() {
  return <ComingSoon section="dashboard" />;
}
