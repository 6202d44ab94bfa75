import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { WorkflowView } from './workflow-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).workflows.metaTitle };
}

export default async function WorkflowPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <WorkflowView id={decodeURIComponent(id)} />;
}
