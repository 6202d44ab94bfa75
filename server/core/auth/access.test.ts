import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error';
import { authorize, type Access, type AuthenticatedActor, type MemberIdentity } from './access';
import { scopesCover } from './scopes';

const member: MemberIdentity = { id: 'm', email: 'm@x', name: 'M', role: 'member', createdAt: new Date(0) };
const admin: MemberIdentity = { ...member, role: 'admin' };
const session = (who = member): AuthenticatedActor => ({ kind: 'session', sessionId: 's', member: who });
const key = (scopes: string[], who = member): AuthenticatedActor => ({ kind: 'apiKey', keyId: 'k', scopes, member: who });

function codeOf(access: Access, actor: AuthenticatedActor): string | null {
  try {
    authorize(access, actor);
    return null;
  } catch (error) {
    return (error as AppError).code;
  }
}

describe('authorize: scopes only narrow the owner’s rights', () => {
  it.each([
    ['session route refuses keys', { kind: 'session' }, key(['admin:write']), 'api_key.session_required'],
    ['session route admits a session', { kind: 'session' }, session(), null],
    ['noKeys route refuses keys', { kind: 'noKeys' }, key(['admin:write']), 'api_key.route_not_allowed'],
    ['missing scope', { kind: 'scope', scope: 'tables:write' }, key(['tables:read']), 'api_key.scope_missing'],
    ['write implies read', { kind: 'scope', scope: 'tables:read' }, key(['tables:write']), null],
    ['read does not imply write', { kind: 'scope', scope: 'tables:write' }, key(['tables:read']), 'api_key.scope_missing'],
    ['a session needs no scope', { kind: 'scope', scope: 'tables:write' }, session(), null],
    ['admin scope on a member key grants nothing', { kind: 'scope', scope: 'admin:read', admin: true }, key(['admin:read']), 'auth.forbidden'],
    ['admin route refuses a member session', { kind: 'scope', scope: 'admin:read', admin: true }, session(), 'auth.forbidden'],
    ['admin key with the scope passes', { kind: 'scope', scope: 'admin:write', admin: true }, key(['admin:write'], admin), null],
    ['admin key without the scope', { kind: 'scope', scope: 'admin:write', admin: true }, key(['tables:read'], admin), 'api_key.scope_missing'],
    ['any key reaches a member route', { kind: 'member' }, key(['contacts:read']), null],
  ] as [string, Access, AuthenticatedActor, string | null][])('%s', (_name, access, actor, expected) => {
    expect(codeOf(access, actor)).toBe(expected);
  });

  it('names the missing scope in details.required', () => {
    try {
      authorize({ kind: 'scope', scope: 'admin:write', admin: true }, key(['tables:read'], admin));
      expect.unreachable();
    } catch (error) {
      expect((error as AppError).details).toEqual({ required: 'admin:write' });
    }
  });

  it('scopesCover does not let one domain cover another', () => {
    expect(scopesCover(['tables:write'], 'review:read')).toBe(false);
  });
});

describe('an execution actor acts for its member through the engine, never through a route', () => {
  it.each([['member'], ['session'], ['scope']] as const)('a %s route refuses it', (kind) => {
    const access = (kind === 'scope' ? { kind, scope: 'tables:read' } : { kind }) as Access;
    expect(codeOf(access, { kind: 'execution', executionId: 'e', member: admin })).toBe('auth.forbidden');
  });
});
