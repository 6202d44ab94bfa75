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

/**
 * The scopes to add so that `granted` covers every one of `required`, in catalogue order: a missing
 * `x:read` is left out when `x:write` is missing too (adding the write scope covers both).
 */
export function scopesToAdd(granted: readonly string[], required: Iterable<Scope>): Scope[] {
  const missing = new Set([...required].filter((scope) => !scopesCover(granted, scope)));
  for (const scope of missing) {
    const [domain, level] = scope.split(':');
    if (level === 'read' && missing.has(`${domain}:write` as Scope)) missing.delete(scope);
  }
  return normaliseScopes([...missing]);
}
