/** Locale and dictionary for server components: the stored choice first, then the browser's languages. */
import { cookies, headers } from 'next/headers';
import { dictionaries, isLocale, localeCookie, negotiateLocale, type Dictionary, type Locale } from './index';

export async function getLocale(): Promise<Locale> {
  const stored = (await cookies()).get(localeCookie)?.value;
  if (isLocale(stored)) return stored;
  return negotiateLocale((await headers()).get('accept-language'));
}

export async function getDictionary(): Promise<Dictionary> {
  return dictionaries[await getLocale()];
}
