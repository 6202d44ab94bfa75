/**
 * The allowed hosts of an HTTP connection as typed in the form (one per line, or separated by commas
 * or spaces), checked with the service's own rules (server/core/net/allowed-hosts.ts) so a refusal
 * shows at the field, in the member's language, before anything is sent.
 */
import { allowedHostsBounds, normaliseAllowedHost, type AllowedHostRefusal } from '@/server/core/net/allowed-hosts';

export interface HostMessages {
  hostsRequired: string;
  tooManyHosts: (max: number) => string;
  hostInvalid: (entry: string, reason: AllowedHostRefusal) => string;
}

/** The entries of the text, without empty ones. */
export function hostEntries(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/**
 * The list to send (`undefined`: none typed and none needed), or the first problem. `required`:
 * an organisation connection, which the service refuses without hosts.
 */
export function hostsData(text: string, required: boolean, m: HostMessages): { hosts: string[] | undefined } | { error: string } {
  const entries = hostEntries(text);
  if (entries.length === 0) return required ? { error: m.hostsRequired } : { hosts: undefined };
  if (entries.length > allowedHostsBounds.maxEntries) return { error: m.tooManyHosts(allowedHostsBounds.maxEntries) };
  for (const entry of entries) {
    const parsed = normaliseAllowedHost(entry);
    if (!parsed.ok) return { error: m.hostInvalid(entry, parsed.reason) };
  }
  return { hosts: entries };
}
