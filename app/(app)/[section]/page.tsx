import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getDictionary } from '@/app/i18n/server';
import { ComingSoon } from '../_shell/coming-soon';
import { isPlaceholderSection } from '../_shell/sections';

/** Sections not built yet; a section's own folder (e.g. `workflows/page.tsx`) takes precedence over this route. */
type Props = { params: Promise<{ section: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { section } = await params;
  if (!isPlaceholderSection(section)) return {};
  return { title: (await getDictionary()).sections[section].title };
}

export default async function PlaceholderSectionPage({ params }: Props) {
  const { section } = await params;
  if (!isPlaceholderSection(section)) notFound();
  return <ComingSoon section={section} />;
}
