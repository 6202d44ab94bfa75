import { redirect } from 'next/navigation';

/** The mailboxes live under Settings (where the OAuth callback returns); keep the short path working. */
export default function MailboxesRedirect() {
  redirect('/settings/mailboxes');
}
