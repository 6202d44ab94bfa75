import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { InvitationsSection } from './invitations-section';
import { MembersSection } from './members-section';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).members.metaTitle };
}

export default function MembersPage() {
  return (
    <div className="space-y-10">
      <MembersSection />
      <InvitationsSection />
    </div>
  );
}
