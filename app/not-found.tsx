import Link from 'next/link';
import { getDictionary } from '@/app/i18n/server';
import { buttonClasses } from '@/app/ui/button';

export default async function NotFound() {
  const t = await getDictionary();
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center px-4 text-center">
      <p className="text-sm font-semibold text-brand-fg">404</p>
      <h1 className="mt-2 text-2xl font-semibold tracking-tight">{t.notFound.title}</h1>
      <p className="mt-2 max-w-sm text-sm text-muted">{t.notFound.body}</p>
      <Link href="/" className={buttonClasses('primary', 'md', 'mt-6')}>
        {t.notFound.home}
      </Link>
    </main>
  );
}
