import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { OAuthAppsView } from './oauth-apps-view';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).oauthApps.metaTitle };
}

export default function OAuthAppsPage() {
  return <OAuthAppsView />;
}
