import type { Metadata } from 'next';
import { getDictionary, getLocale } from '@/app/i18n/server';
import { getBranding } from '@/app/lib/branding';
import { LoginForm } from './login-form';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getDictionary()).login.metaTitle };
}

export default async function LoginPage() {
  const brand = await getBranding();
  const locale = await getLocale();
  return <LoginForm brandName={brand.name} welcome={brand.login.welcome?.[locale] ?? null} suspended={brand.instance.suspended} />;
}
