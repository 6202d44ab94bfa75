import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { AnalyzerView } from './analyzer-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).analyzer.metaTitle };
}

export default function AnalyzerPage() {
  return <AnalyzerView />;
}
