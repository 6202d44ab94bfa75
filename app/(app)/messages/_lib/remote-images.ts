/**
 * Senders whose remote images the reader always allows, kept in this browser (localStorage). Bounded,
 * lower-cased, newest last; a broken or foreign value reads as an empty list.
 */
const storageKey = 'mailflow.webmail.trustedImageSenders';
const maxSenders = 500;

function read(): string[] {
  try {
    const raw = window.localStorage.getItem(storageKey);
    const value: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string').slice(-maxSenders) : [];
  } catch {
    return [];
  }
}

export function isTrustedImageSender(email: string | null | undefined): boolean {
  if (!email || typeof window === 'undefined') return false;
  return read().includes(email.trim().toLowerCase());
}

export function trustImageSender(email: string): void {
  const normalized = email.trim().toLowerCase();
  if (!normalized) return;
  const next = [...read().filter((item) => item !== normalized), normalized].slice(-maxSenders);
  try {
    window.localStorage.setItem(storageKey, JSON.stringify(next));
  } catch {
    // Storage full or disabled: the choice holds for this message only.
  }
}

export function forgetImageSender(email: string): void {
  const normalized = email.trim().toLowerCase();
  try {
    window.localStorage.setItem(storageKey, JSON.stringify(read().filter((item) => item !== normalized)));
  } catch {
    // nothing to do
  }
}
