'use client';

/**
 * The dialogs' texts in the interface language. Self-contained: their strings live in ./_i18n and are picked here by
 * the locale, so mounting the dialogs needs no entry in the app's dictionary.
 */
import { useI18n } from '@/app/i18n/client';
import { enImportExport, type ImportExportTexts } from './_i18n/en-import-export';
import { frImportExport } from './_i18n/fr-import-export';

export function useImportExportTexts(): ImportExportTexts {
  const { locale } = useI18n();
  return locale === 'fr' ? frImportExport : enImportExport;
}
