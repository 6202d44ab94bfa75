'use client';

/**
 * Settings → Signatures: the member's signatures and their writing defaults (the address book's
 * `member_default` layer: formality, tone, language, notes and the signature used when no card says
 * otherwise). A mailbox's own defaults are on the Mailboxes page; the organisation's in Admin.
 */
import { useI18n } from '@/app/i18n/client';
import { PageHeader, SectionHeader } from '@/app/ui/page-header';
import { DefaultsForm } from '../../contacts/_components/defaults-form';
import { SignaturesEditor } from '../../contacts/_components/signatures-editor';

export function SignaturesView() {
  const { t } = useI18n();
  const s = t.contacts.signatures;
  const d = t.contacts.defaults.member;
  return (
    <>
      <PageHeader title={s.title} description={s.description} />
      <div className="space-y-10">
        <SignaturesEditor />
        <section aria-labelledby="member-defaults-heading" data-testid="member-defaults">
          <SectionHeader id="member-defaults-heading" title={d.title} description={d.description} />
          <DefaultsForm which={{ scope: 'member' }} testId="member-defaults-form" />
        </section>
      </div>
    </>
  );
}
