import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { NotificationsView } from './notifications-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).sections.notifications.title };
}

export default function NotificationsPage() {
  return <NotificationsView />;
}
