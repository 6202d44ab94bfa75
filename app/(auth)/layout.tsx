/** Frame of the pages used before signing in: brand, a centred card, language and support links. */
import type { ReactNode } from 'react';
import { getDictionary } from '@/app/i18n/server';
import { getBranding } from '@/app/lib/branding';
import { BrandMark } from '@/app/ui/brand-mark';
import { LanguageSelect } from '@/app/ui/language-select';

export default async function AuthLayout({ children }: { children: ReactNode }) {
  const brand = await getBranding();
  const t = await getDictionary();
  return (
    <div className="flex min-h-dvh">
      <div className="relative flex flex-1 flex-col">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-x-0 top-0 h-72 bg-[radial-gradient(60%_100%_at_50%_0%,color-mix(in_oklab,var(--brand)_12%,transparent),transparent)]"
        />
        <main className="relative flex flex-1 flex-col items-center justify-center px-4 py-12">
          <div className="w-full max-w-[400px]">
            <BrandMark name={brand.name} logoLight={brand.logo.light} logoDark={brand.logo.dark} size="lg" className="mb-8 justify-center" />
            {children}
          </div>
        </main>
        <footer className="relative flex flex-wrap items-center justify-center gap-x-5 gap-y-2 px-4 pb-6 text-sm text-muted">
          <LanguageSelect />
          {brand.supportUrl ? (
            <a href={brand.supportUrl} className="rounded-sm hover:text-fg" target="_blank" rel="noopener noreferrer">
              {t.login.support}
            </a>
          ) : null}
          {brand.poweredBy ? <span>{brand.poweredBy}</span> : null}
        </footer>
      </div>
      {brand.login.image ? (
        <div aria-hidden="true" className="hidden w-[45%] bg-cover bg-center lg:block" style={{ backgroundImage: `url(${JSON.stringify(brand.login.image)})` }} />
      ) : null}
    </div>
  );
}
