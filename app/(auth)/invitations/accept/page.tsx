import type { Metadata } from 'next';
import { getDictionary } from '@/app/i18n/server';
import { getBranding } from '@/app/lib/branding';
import { AcceptInvitationForm } from './accept-form';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).accept.metaTitle };
}

/** Reached from `/invitations/accept#token=…`: the token stays in the fragment, never sent to a server log. */
export default async function AcceptInvitationPage() {
  return <AcceptInvitationForm brandName={(await getBranding()).name} />;
}
