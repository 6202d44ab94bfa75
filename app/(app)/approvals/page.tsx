import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { ApprovalsView } from './approvals-view';
import { statusFromSearch } from './_lib/status';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).approvals.metaTitle };
}

export default async function ApprovalsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  return <ApprovalsView initialStatus={statusFromSearch((await searchParams).status)} />;
}
