'use client';

/** A template's graph, read-only on the same canvas as a workflow's, with its Install button. */
import { useI18n } from '@/app/i18n/client';
import { Button } from '@/app/ui/button';
import { Dialog, DialogBody, DialogClose, DialogContent, DialogFooter } from '@/app/ui/dialog';
import { ErrorState, LoadingState } from '@/app/ui/states';
import { GraphCanvas } from '../../workflows/_components/graph-canvas';
import { useTemplate, type Template } from '../_lib/api';

function PreviewBody({ template }: { template: Template }) {
  const { t } = useI18n();
  const detail = useTemplate(template.id, true);
  if (detail.isPending) return <LoadingState rows={3} />;
  if (detail.isError) return <ErrorState error={detail.error} onRetry={() => detail.refetch()} testId="template-preview-error" />;
  return <GraphCanvas graph={detail.data.graph} label={t.templates.canvasLabel(template.name)} emptyText={t.templates.canvasEmpty} />;
}

export function TemplatePreviewDialog({
  template,
  onOpenChange,
  onInstall,
}: {
  template: Template | null;
  onOpenChange: (open: boolean) => void;
  onInstall: (template: Template) => void;
}) {
  const { t } = useI18n();
  return (
    <Dialog open={template !== null} onOpenChange={onOpenChange}>
      {template ? (
        <DialogContent size="xl" title={t.templates.previewTitle(template.name)} description={template.description || undefined}>
          <DialogBody>
            <PreviewBody template={template} />
          </DialogBody>
          <DialogFooter>
            <DialogClose asChild>
              <Button>{t.common.close}</Button>
            </DialogClose>
            <Button variant="primary" onClick={() => onInstall(template)}>
              {t.templates.install}
            </Button>
          </DialogFooter>
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
