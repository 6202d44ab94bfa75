import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { MailboxHealthPanel } from './_health/mailbox-health-panel';
import { DashboardView } from './_dashboard/dashboard-view';
import { viewFromSearch } from './_dashboard/search';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).sections.dashboard.title };
}

/** The home page is the dashboard (issue 20); its view (period, zone, scope, filters) is in the address. */
export default async function DashboardPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const first = (name: string) => {
    const value = params[name];
    return (Array.isArray(value) ? value[0] : value) ?? null;
  };
  return <DashboardView initialView={viewFromSearch({ get: first })} healthPanel={<MailboxHealthPanel compact />} />;
}
