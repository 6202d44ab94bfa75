import type { Metadata, Viewport } from 'next';
import type { CSSProperties, ReactNode } from 'react';
import { cookies } from 'next/headers';
import { getLocale } from '@/app/i18n/server';
import { brandStyle } from '@/app/lib/brand';
import { getBranding } from '@/app/lib/branding';
import { Providers } from '@/app/lib/providers';
import { isTheme, themeAttribute, themeCookie } from '@/app/lib/theme';
import './globals.css';

export async function generateMetadata(): Promise<Metadata> {
  const brand = await getBranding();
  return {
    title: { default: brand.name, template: `%s · ${brand.name}` },
    icons: { icon: brand.favicon ?? '/favicon.svg' },
    robots: { index: false, follow: false },
  };
}

export const viewport: Viewport = {
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#f7f7f8' },
    { media: '(prefers-color-scheme: dark)', color: '#0f0f12' },
  ],
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const locale = await getLocale();
  const brand = await getBranding();
  const storedTheme = (await cookies()).get(themeCookie)?.value;
  return (
    <html lang={locale} data-theme={isTheme(storedTheme) ? themeAttribute(storedTheme) : undefined} style={brandStyle(brand.colors.primary, brand.colors.onPrimary) as CSSProperties}>
      <body className="min-h-dvh bg-canvas font-sans text-fg antialiased">
        <Providers locale={locale}>{children}</Providers>
      </body>
    </html>
  );
}
