'use client';

/**
 * Admin → Writing defaults: the organisation's defaults, the address book's last layer (`org_default`):
 * formality, tone, language and notes for every member's correspondents that nothing else describes.
 * Administrators only (the admin layout's gate; the route refuses others with 403). Every change is audited.
 */
import { useI18n } from '@/app/i18n/client';
import { PageHeader } from '@/app/ui/page-header';
import { DefaultsForm } from '../../contacts/_components/defaults-form';

export function WritingDefaultsView() {
  const { t } = useI18n();
  const o = t.contacts.defaults.organisation;
  return (
    <>
      <PageHeader title={o.title} description={o.description} />
      <DefaultsForm which={{ scope: 'organisation' }} testId="org-defaults-form" />
    </>
  );
}
