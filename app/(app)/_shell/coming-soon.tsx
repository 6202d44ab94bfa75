/** Placeholder for a section whose page is not built yet (server component). */
import { getDictionary } from '@/app/i18n/server';
import { getBranding } from '@/app/lib/branding';
import { Badge } from '@/app/ui/badge';
import { Card } from '@/app/ui/card';
import { ClockIcon } from '@/app/ui/icons';
import { PageHeader } from '@/app/ui/page-header';
import type { SectionKey } from './sections';

export async function ComingSoon({ section }: { section: SectionKey }) {
  const t = await getDictionary();
  const { title, description } = t.sections[section];
  return (
    <>
      <PageHeader title={title} description={description} />
      <Card className="flex flex-col items-center px-6 py-16 text-center">
        <div className="mb-4 flex size-11 items-center justify-center rounded-full bg-brand/10 text-brand-fg">
          <ClockIcon size={20} />
        </div>
        <Badge tone="brand">{t.comingSoon.badge}</Badge>
        <h2 className="mt-3 text-base font-semibold">{t.comingSoon.title}</h2>
        <p className="mt-1 max-w-md text-sm text-muted">{t.comingSoon.body((await getBranding()).name)}</p>
      </Card>
    </>
  );
}
