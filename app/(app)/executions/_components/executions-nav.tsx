'use client';

/** Runs | Incidents: the two views of the Executions section, as links. */
import Link from 'next/link';
import { useI18n } from '@/app/i18n/client';
import { cn } from '@/app/ui/cn';

export function ExecutionsNav({ current }: { current: 'runs' | 'incidents' }) {
  const { t } = useI18n();
  const items = [
    { key: 'runs' as const, href: '/executions', label: t.executions.tabs.runs },
    { key: 'incidents' as const, href: '/executions/incidents', label: t.executions.tabs.incidents },
  ];
  return (
    <nav aria-label={t.executions.tabs.label} className="mb-5 flex gap-1 border-b border-line">
      {items.map((item) => (
        <Link
          key={item.key}
          href={item.href}
          aria-current={item.key === current ? 'page' : undefined}
          className={cn(
            '-mb-px border-b-2 px-3 py-2 text-sm font-medium transition-colors',
            item.key === current ? 'border-brand text-fg' : 'border-transparent text-muted hover:text-fg',
          )}
        >
          {item.label}
        </Link>
      ))}
    </nav>
  );
}
