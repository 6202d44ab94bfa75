'use client';

/** The interface language on the client: `useI18n()` gives the dictionary and a way to switch. */
import { useRouter } from 'next/navigation';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { dictionaries, localeCookie, type Dictionary, type Locale } from './index';

interface I18nValue {
  locale: Locale;
  t: Dictionary;
  setLocale: (locale: Locale) => void;
}

const I18nContext = createContext<I18nValue | null>(null);

const oneYear = 60 * 60 * 24 * 365;

export function I18nProvider({ initialLocale, children }: { initialLocale: Locale; children: ReactNode }) {
  const router = useRouter();
  const [locale, setLocaleState] = useState(initialLocale);

  const setLocale = useCallback(
    (next: Locale) => {
      document.cookie = `${localeCookie}=${next}; path=/; max-age=${oneYear}; samesite=lax`;
      document.documentElement.lang = next;
      setLocaleState(next);
      // Server-rendered parts (page titles) follow on the next render.
      router.refresh();
    },
    [router],
  );

  const value = useMemo(() => ({ locale, t: dictionaries[locale], setLocale }), [locale, setLocale]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18nValue {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n() outside <I18nProvider>');
  return value;
}
