'use client';

/** The assistant's full page: every conversation of the member (attached to a workflow or not). */
import { useI18n } from '@/app/i18n/client';
import { PageHeader } from '@/app/ui/page-header';
import { AssistantPanel } from '../workflows/_components/assistant/assistant-panel';

export function AssistantView() {
  const { t } = useI18n();
  return (
    <div className="flex h-full min-h-[70vh] flex-col gap-4">
      <PageHeader title={t.assistant.title} description={t.assistant.description} />
      <AssistantPanel className="min-h-[60vh] flex-1" />
    </div>
  );
}
