/** The credentials a case is sent with: those that pass the operation's access rule, and those that should not. */
import { allScopes, type Scope } from '../../core/auth/scopes';
import type { FuzzOperation } from './operations';
import type { Credential } from './world';

const noCredential: Credential = { label: 'no credential', kind: 'none' };

/** Scopes that must not open a route needing `scope`: another domain's, and the read scope of a write route. */
function wrongScopes(scope: Scope): Scope[] {
  const [domain, level] = scope.split(':');
  const other = allScopes.find((candidate) => !candidate.startsWith(`${domain}:`) && !candidate.startsWith('admin:')) ?? 'tables:read';
  return level === 'write' ? [other, `${domain}:read` as Scope] : [other];
}

/** Credentials that pass the operation's access rule, and the ones that should not. */
export function credentialsFor(operation: FuzzOperation): { passing: Credential[]; failing: Credential[] } {
  const access = operation.access;
  const admin = 'admin' in access && access.admin;
  const memberSession: Credential = { label: 'member session', kind: 'session', owner: 'member' };
  const adminSession: Credential = { label: 'admin session', kind: 'session', owner: 'admin' };
  const anyKey: Credential = { label: 'key tables:read (member)', kind: 'key', owner: 'member', scopes: ['tables:read'] };
  switch (access.kind) {
    case 'public':
    case 'urlToken':
      return { passing: [noCredential], failing: [memberSession, anyKey] };
    case 'session':
    case 'noKeys':
      return admin
        ? { passing: [adminSession], failing: [noCredential, memberSession, { ...anyKey, label: 'key (admin)', owner: 'admin' }] }
        : { passing: [memberSession], failing: [noCredential, anyKey] };
    case 'member':
      return admin
        ? { passing: [adminSession, { ...anyKey, label: 'key (admin)', owner: 'admin' }], failing: [noCredential, memberSession, anyKey] }
        : { passing: [memberSession, anyKey], failing: [noCredential] };
    case 'scope': {
      const owner = admin ? 'admin' : 'member';
      const needed: Credential = { label: `key ${access.scope} (${owner})`, kind: 'key', owner, scopes: [access.scope] };
      const wrong = wrongScopes(access.scope).map((scope): Credential => ({ label: `key ${scope} (${owner}, wrong scope)`, kind: 'key', owner, scopes: [scope] }));
      const failing: Credential[] = [noCredential, ...wrong];
      if (admin) failing.push(memberSession, { label: `key ${access.scope} (member, not admin)`, kind: 'key', owner: 'member', scopes: [access.scope] });
      return { passing: [admin ? adminSession : memberSession, needed], failing };
    }
  }
}
