import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { SignaturesView } from './signatures-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).contacts.signatures.metaTitle };
}

export default function SignaturesPage() {
  return <SignaturesView />;
}
