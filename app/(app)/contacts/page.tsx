import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { ContactsView } from './contacts-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).contacts.metaTitle };
}

export default function ContactsPage() {
  return <ContactsView />;
}
