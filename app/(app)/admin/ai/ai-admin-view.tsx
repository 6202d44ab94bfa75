'use client';

/** Admin → AI models: connections, routing per purpose, prices, budgets and a month's usage. */
import { useI18n } from '@/app/i18n/client';
import { PageHeader } from '@/app/ui/page-header';
import { ConnectionsSection } from './connections-section';
import { RoutingSection } from './routing-section';
import { BudgetsSection, PricesSection, UsageSection } from './spend-sections';

export function AiAdminView() {
  const { t } = useI18n();
  return (
    <>
      <PageHeader title={t.aiAdmin.title} description={t.aiAdmin.description} />
      <div className="space-y-10">
        <ConnectionsSection />
        <RoutingSection />
        <BudgetsSection />
        <PricesSection />
        <UsageSection />
      </div>
    </>
  );
}
