'use client';

/** Compact language picker for pages without the user menu (sign-in, invitation). */
import { useId } from 'react';
import { useI18n } from '@/app/i18n/client';
import { isLocale, locales } from '@/app/i18n';
import { GlobeIcon } from './icons';

export function LanguageSelect() {
  const { t, locale, setLocale } = useI18n();
  const id = useId();
  return (
    <div className="relative inline-flex items-center gap-1.5 text-sm text-muted">
      <GlobeIcon />
      <label htmlFor={id} className="sr-only">
        {t.language.label}
      </label>
      <select
        id={id}
        value={locale}
        onChange={(event) => isLocale(event.target.value) && setLocale(event.target.value)}
        className="cursor-pointer appearance-none rounded-md bg-transparent py-1 pr-1 pl-0.5 text-sm text-muted hover:text-fg"
      >
        {locales.map((code) => (
          <option key={code} value={code}>
            {t.language[code]}
          </option>
        ))}
      </select>
    </div>
  );
}
