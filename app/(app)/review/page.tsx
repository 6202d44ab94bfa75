import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { ReviewView } from './review-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).review.metaTitle };
}

export default function ReviewPage() {
  return <ReviewView />;
}
