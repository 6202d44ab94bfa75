/**
 * The scope catalogue. A key's scopes only narrow its owner's rights: a scope never grants what the
 * member could not do, and `<domain>:write` implies `<domain>:read` of the same domain.
 */
export const scopeDomains = [
  'admin',
  'tables',
  'review',
  'mailboxes',
  'connections',
  'messages',
  'assistant',
  'templates',
  'workflows',
  'executions',
  'approvals',
  'dashboard',
  'contacts',
  'analyzer',
  'notifications',
] as const;

export type ScopeDomain = (typeof scopeDomains)[number];
export type ScopeLevel = 'read' | 'write';
export type Scope = `${ScopeDomain}:${ScopeLevel}`;

export const allScopes: Scope[] = scopeDomains.flatMap((domain) => [`${domain}:read`, `${domain}:write`] as Scope[]);

const scopeSet = new Set<string>(allScopes);

export function isScope(value: string): value is Scope {
  return scopeSet.has(value);
}

/** True when one of `granted` covers `required` (`x:write` covers `x:read`). */
export function scopesCover(granted: readonly string[], required: Scope): boolean {
  if (granted.includes(required)) return true;
  const [domain, level] = required.split(':');
  return level === 'read' && granted.includes(`${domain}:write`);
}

/** Sorted, without duplicates, so stored keys compare equal however they were asked for. */
export function normaliseScopes(scopes: readonly Scope[]): Scope[] {
  return [...new Set(scopes)].sort((a, b) => allScopes.indexOf(a) - allScopes.indexOf(b));
}
