import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { getBranding } from '@/app/lib/branding';
import { AppShell } from './_shell/app-shell';

/**
 * Signed-in pages. Without a session cookie the visitor goes straight to sign-in; a cookie that no
 * longer opens a session is caught on the client (auth.unauthenticated from auth.me).
 */
export default async function AppLayout({ children }: { children: ReactNode }) {
  if (!(await cookies()).get('session')?.value) redirect('/login');
  const brand = await getBranding();
  return <AppShell brand={{ name: brand.name, logoLight: brand.logo.light, logoDark: brand.logo.dark }}>{children}</AppShell>;
}
