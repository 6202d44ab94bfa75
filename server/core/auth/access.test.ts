import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error';
import { authorize, authorizeScopeNeeds, type Access, type AuthenticatedActor, type MemberIdentity, type ScopeNeed } from './access';
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

describe('authorizeScopeNeeds: a workflow through a key needs the scopes its nodes imply', () => {
  const refusal = (actor: AuthenticatedActor, needs: ScopeNeed[]) => {
    try {
      authorizeScopeNeeds(actor, needs);
      return null;
    } catch (error) {
      return { status: (error as AppError).status, code: (error as AppError).code, details: (error as AppError).details };
    }
  };
  const mailToHttp: ScopeNeed[] = [{ scope: 'messages:read', nodeTypes: ['trigger.mail'] }];

  it('refuses a key without them: 403 api_key.scope_missing naming the scope and the node types', () => {
    expect(refusal(key(['workflows:write']), mailToHttp)).toEqual({
      status: 403,
      code: 'api_key.scope_missing',
      details: { required: 'messages:read', missing: ['messages:read'], nodeTypes: ['trigger.mail'] },
    });
    expect(refusal(key(['workflows:write', 'messages:read']), mailToHttp)).toBeNull();
    expect(refusal(key(['workflows:write', 'messages:write']), mailToHttp)).toBeNull();
  });

  it('names the first scope to add in catalogue order, a write scope standing for its read', () => {
    const needs: ScopeNeed[] = [
      { scope: 'review:write', nodeTypes: ['mail.send'] },
      { scope: 'messages:read', nodeTypes: ['trigger.mail', 'mail.send'] },
      { scope: 'messages:write', nodeTypes: ['mail.move'], workflowIds: ['w2'] },
      { scope: 'tables:read', nodeTypes: ['tables.lookup'] },
      { scope: 'workflows:write', reasons: ['draft_write'] },
    ];
    expect(refusal(key(['tables:read']), needs)).toMatchObject({
      details: {
        required: 'review:write',
        missing: ['review:write', 'messages:write', 'workflows:write'],
        nodeTypes: ['mail.move', 'mail.send', 'trigger.mail'],
        workflowIds: ['w2'],
        reasons: ['draft_write'],
      },
    });
  });

  it('leaves sessions alone; narrows an administrator’s key like anyone’s', () => {
    expect(refusal(session(), mailToHttp)).toBeNull();
    expect(refusal(session(admin), mailToHttp)).toBeNull();
    expect(refusal(key(['workflows:write', 'admin:write'], admin), mailToHttp)).toMatchObject({ code: 'api_key.scope_missing', details: { required: 'messages:read' } });
  });
});
