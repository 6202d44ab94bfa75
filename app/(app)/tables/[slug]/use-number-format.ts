'use client';

/** Numbers written the way the interface language writes them. */
import { useMemo } from 'react';
import { useI18n } from '@/app/i18n/client';

export function useNumberFormat() {
  const { locale } = useI18n();
  return useMemo(() => new Intl.NumberFormat(locale === 'fr' ? 'fr-FR' : 'en-GB'), [locale]);
}
