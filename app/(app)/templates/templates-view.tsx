'use client';

/**
 * The templates gallery: category chips and a search (client-side: the list is whole), one card per
 * template with its steps in words (the node types' labels, never `logic.if@1`), the tables it needs
 * with their columns and types, and its install count, a preview of its graph, and Install. Administrators
 * also see disabled templates, marked, with Enable / Disable, and a menu to edit or delete a template.
 */
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useI18n } from '@/app/i18n/client';
import { describeError } from '@/app/lib/errors';
import { Alert } from '@/app/ui/alert';
import { Badge } from '@/app/ui/badge';
import { Button } from '@/app/ui/button';
import { Card } from '@/app/ui/card';
import { cn } from '@/app/ui/cn';
import { Input } from '@/app/ui/field';
import { SearchIcon, TemplateIcon } from '@/app/ui/icons';
import { PageHeader } from '@/app/ui/page-header';
import { EmptyState, ErrorState, LoadingState } from '@/app/ui/states';
import { useMe } from '../_shell/_lib/api';
import { InstallTemplateDialog } from './_components/install-dialog';
import { TableColumns } from './_components/install-tables';
import { TemplatePreviewDialog } from './_components/preview-dialog';
import { TemplateAdminMenu } from './_components/template-admin';
import { stepLabels, useNodeTypeLabels, useTemplateList, useTemplateMutations, useTemplatesCache, type NodeTypeLabels, type Template } from './_lib/api';
import { categoriesOf, filterTemplates, type CategoryFilter } from './_lib/filter';

function CategoryChips({ categories, value, onChange }: { categories: string[]; value: CategoryFilter; onChange: (value: CategoryFilter) => void }) {
  const { t } = useI18n();
  const chips = ['all', ...categories];
  return (
    <div role="group" aria-label={t.templates.categoriesLabel} className="flex flex-wrap gap-1.5">
      {chips.map((chip) => (
        <button
          key={chip}
          type="button"
          aria-pressed={value === chip}
          data-testid="category-chip"
          onClick={() => onChange(chip)}
          className={cn(
            'rounded-full border px-3 py-1 text-[13px] font-medium transition-colors',
            value === chip ? 'border-brand bg-brand text-on-brand' : 'border-line-strong bg-surface text-fg hover:bg-subtle',
          )}
        >
          {chip === 'all' ? t.templates.allCategories : (t.templates.categories[chip] ?? chip)}
        </button>
      ))}
    </div>
  );
}

function AdminToggle({ template }: { template: Template }) {
  const { t } = useI18n();
  const cache = useTemplatesCache();
  const mutations = useTemplateMutations();
  const enable = useMutation({ ...mutations.enable, onSuccess: () => cache.refresh() });
  const disable = useMutation({ ...mutations.disable, onSuccess: () => cache.refresh() });
  const toggle = template.enabled ? disable : enable;
  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        loading={toggle.isPending}
        aria-label={template.enabled ? t.templates.disableOf(template.name) : t.templates.enableOf(template.name)}
        onClick={() => toggle.mutate({ id: template.id })}
      >
        {template.enabled ? t.templates.disable : t.templates.enable}
      </Button>
      {toggle.isError ? (
        <Alert tone="danger" testId="template-toggle-error" className="basis-full">
          {describeError(toggle.error, t)}
        </Alert>
      ) : null}
    </>
  );
}

function TemplateCard({ template, isAdmin, labels, onPreview, onInstall }: { template: Template; isAdmin: boolean; labels: NodeTypeLabels; onPreview: () => void; onInstall: () => void }) {
  const { t } = useI18n();
  return (
    <Card data-testid="template-card" data-enabled={template.enabled} className={cn('flex flex-col p-4', !template.enabled && 'border-dashed opacity-80')}>
      <div className="flex items-start justify-between gap-2">
        <h3 className="text-sm font-semibold">{template.name}</h3>
        <div className="flex shrink-0 gap-1">
          {!template.enabled ? (
            <Badge tone="warning" title={t.templates.disabledHint}>
              {t.templates.disabled}
            </Badge>
          ) : null}
          <Badge>{t.templates.categories[template.category ?? 'none'] ?? template.category}</Badge>
        </div>
      </div>
      {template.description ? <p className="mt-1.5 line-clamp-3 text-sm text-muted">{template.description}</p> : null}
      <div className="mt-3 space-y-1.5 text-xs">
        <div>
          <span className="sr-only">{t.templates.steps}: </span>
          <ul aria-label={t.templates.steps} className="flex flex-wrap gap-1">
            {stepLabels(template.nodeTypes, labels).map((label) => (
              <li key={label} className="rounded bg-subtle px-1.5 py-0.5 text-[11px] text-muted">
                {label}
              </li>
            ))}
          </ul>
        </div>
        {template.tables.map((table) => (
          <details key={table.slug} data-testid="template-table">
            <summary className="cursor-pointer text-muted">{t.templates.needsTable(table.name)}</summary>
            <div className="mt-1 pl-3">
              <TableColumns table={table} />
            </div>
          </details>
        ))}
        {template.requiresProviders.length ? (
          <p className="text-muted">
            {t.templates.requires}: {template.requiresProviders.map((provider) => t.templates.providers[provider] ?? provider).join(', ')}
          </p>
        ) : null}
        <p className="text-muted tabular-nums" data-testid="template-installs">
          {t.templates.installs(template.installCount)}
        </p>
      </div>
      <div className="mt-auto flex flex-wrap items-center gap-2 pt-4">
        <Button size="sm" onClick={onPreview} aria-label={t.templates.previewOf(template.name)}>
          {t.templates.preview}
        </Button>
        <Button size="sm" variant="primary" onClick={onInstall} aria-label={t.templates.installOf(template.name)}>
          {t.templates.install}
        </Button>
        {isAdmin ? (
          <>
            <AdminToggle template={template} />
            <span className="ml-auto">
              <TemplateAdminMenu template={template} />
            </span>
          </>
        ) : null}
      </div>
    </Card>
  );
}

function Gallery({ templates, isAdmin }: { templates: Template[]; isAdmin: boolean }) {
  const { t } = useI18n();
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState<CategoryFilter>('all');
  const [previewing, setPreviewing] = useState<Template | null>(null);
  const [installing, setInstalling] = useState<Template | null>(null);
  const categories = useMemo(() => categoriesOf(templates), [templates]);
  // A chip whose last template went away falls back to all.
  const active = category === 'all' || categories.includes(category) ? category : 'all';
  const shown = useMemo(() => filterTemplates(templates, { query, category: active }), [templates, query, active]);
  const labels = useNodeTypeLabels();

  return (
    <>
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <CategoryChips categories={categories} value={active} onChange={setCategory} />
        <div className="relative sm:w-72">
          <SearchIcon size={14} className="pointer-events-none absolute top-1/2 left-2.5 -translate-y-1/2 text-muted" />
          <Input
            type="search"
            aria-label={t.templates.search}
            placeholder={t.templates.searchPlaceholder}
            maxLength={200}
            className="pl-8"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
          />
        </div>
      </div>
      <p className="mb-3 text-xs text-muted" aria-live="polite">
        {t.templates.count(shown.length, templates.length)}
      </p>
      {shown.length === 0 ? (
        <EmptyState
          icon={<SearchIcon size={18} />}
          title={t.templates.emptyFiltered.title}
          body={t.templates.emptyFiltered.body}
          action={
            <Button
              onClick={() => {
                setQuery('');
                setCategory('all');
              }}
            >
              {t.templates.emptyFiltered.reset}
            </Button>
          }
        />
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {shown.map((template) => (
            <TemplateCard
              key={template.id}
              template={template}
              isAdmin={isAdmin}
              labels={labels}
              onPreview={() => setPreviewing(template)}
              onInstall={() => setInstalling(template)}
            />
          ))}
        </div>
      )}
      <TemplatePreviewDialog
        template={previewing}
        onOpenChange={(open) => (open ? null : setPreviewing(null))}
        onInstall={(template) => {
          setPreviewing(null);
          setInstalling(template);
        }}
      />
      <InstallTemplateDialog template={installing} isAdmin={isAdmin} onOpenChange={(open) => (open ? null : setInstalling(null))} />
    </>
  );
}

export function TemplatesView() {
  const { t } = useI18n();
  const me = useMe();
  const templates = useTemplateList();
  const isAdmin = me.data?.role === 'admin';
  return (
    <>
      <PageHeader title={t.templates.title} description={t.templates.description} />
      {templates.isPending ? (
        <LoadingState />
      ) : templates.isError ? (
        <ErrorState error={templates.error} onRetry={() => templates.refetch()} testId="templates-error" />
      ) : templates.data.templates.length === 0 ? (
        <EmptyState icon={<TemplateIcon size={18} />} title={t.templates.empty.title} body={t.templates.empty.body} />
      ) : (
        <Gallery templates={templates.data.templates} isAdmin={isAdmin} />
      )}
    </>
  );
}
