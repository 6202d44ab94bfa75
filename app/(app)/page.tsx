import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { ComingSoon } from './_shell/coming-soon';
import { GetStarted } from './_onboarding/get-started';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).sections.dashboard.title };
}

/** The dashboard arrives with issue 20; until then the home page leads with the first steps. */
export default function DashboardPage() {
  return <ComingSoon section="dashboard" lead={<GetStarted />} />;
}
