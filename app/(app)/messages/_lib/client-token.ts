/**
 * A fresh `clientToken` for each thread action (8-128 of `[A-Za-z0-9._:-]`): the service answers a
 * repeat of the same token with `duplicate: true` instead of acting twice. `crypto.randomUUID` only
 * exists in secure contexts; a self-hosted instance on plain HTTP gets `getRandomValues` instead.
 */
export function newClientToken(): string {
  if (typeof crypto.randomUUID === 'function') return `ui:${crypto.randomUUID()}`;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `ui:${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
