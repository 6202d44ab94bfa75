import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { WorkflowsView } from './workflows-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).workflows.metaTitle };
}

export default function WorkflowsPage() {
  return <WorkflowsView />;
}
