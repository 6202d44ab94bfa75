'use client';

/** Admin → OAuth applications: one card per provider (state, callback URL, scopes, registration form). */
import { useI18n } from '@/app/i18n/client';
import { oauthProviders } from '@/app/lib/mail-types';
import { PageHeader } from '@/app/ui/page-header';
import { OAuthAppCard } from './oauth-app-card';

export function OAuthAppsView() {
  const { t } = useI18n();
  return (
    <>
      <PageHeader title={t.oauthApps.title} description={t.oauthApps.description} />
      <div className="space-y-6">
        {oauthProviders.map((provider) => (
          <OAuthAppCard key={provider} provider={provider} />
        ))}
      </div>
    </>
  );
}
