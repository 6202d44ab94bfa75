import { afterEach, describe, expect, it } from 'vitest';
import { config, resetConfigForTests } from './config';
import { controlPlaneLinkOf, controlPlaneProblems, type ControlPlaneEnv } from './control-plane-config';

const secret = 'a-secret-of-32-characters-long!!';
const linked = (over: Partial<ControlPlaneEnv> = {}): ControlPlaneEnv => ({
  NODE_ENV: 'production',
  CONTROL_PLANE_URL: 'https://control.example.com/api/',
  CONTROL_PLANE_INSTANCE_ID: 'acme-prod',
  CONTROL_PLANE_SECRET: secret,
  ...over,
});

describe('the control-plane link: all three variables or none', () => {
  it('none set: not linked, no problem', () => {
    const env = { NODE_ENV: 'production', CONTROL_PLANE_URL: null, CONTROL_PLANE_INSTANCE_ID: null, CONTROL_PLANE_SECRET: null } as const;
    expect(controlPlaneProblems(env)).toEqual([]);
    expect(controlPlaneLinkOf(env)).toBeNull();
  });

  it('all three set: linked, the URL without its trailing slash', () => {
    expect(controlPlaneProblems(linked())).toEqual([]);
    expect(controlPlaneLinkOf(linked())).toEqual({ url: 'https://control.example.com/api', instanceId: 'acme-prod', secret });
  });

  it.each([
    ['the URL alone', { CONTROL_PLANE_INSTANCE_ID: null, CONTROL_PLANE_SECRET: null }, /CONTROL_PLANE_INSTANCE_ID is required/],
    ['the credential without a URL', { CONTROL_PLANE_URL: null }, /CONTROL_PLANE_URL is required/],
    ['no secret', { CONTROL_PLANE_SECRET: null }, /CONTROL_PLANE_SECRET is required/],
  ] as const)('a partial link is a start error naming what is missing: %s', (_label, over, message) => {
    expect(controlPlaneProblems(linked(over)).join('\n')).toMatch(message);
  });
});

describe('CONTROL_PLANE_URL: https, except a loopback host or any host in tests', () => {
  it.each([
    ['production, http', 'production', 'http://control.example.com', false],
    ['development, http to another host', 'development', 'http://control.example.com', false],
    ['development, http to 127.0.0.1', 'development', 'http://127.0.0.1:4010', true],
    ['development, http to localhost', 'development', 'http://localhost:4010', true],
    ['development, http to [::1]', 'development', 'http://[::1]:4010', true],
    ['production, http to 127.0.0.1 (traffic never leaves the machine)', 'production', 'http://127.0.0.1:4010', true],
    ['production, http to a private address', 'production', 'http://10.0.0.5:4010', false],
    ['test, http to any host', 'test', 'http://10.0.0.5:4010', true],
    ['production, https', 'production', 'https://control.example.com', true],
  ] as const)('%s', (_label, nodeEnv, url, accepted) => {
    expect(controlPlaneProblems(linked({ NODE_ENV: nodeEnv, CONTROL_PLANE_URL: url })).length === 0).toBe(accepted);
  });

  it.each([
    ['not a URL', 'control.example.com'],
    ['another scheme', 'ftp://control.example.com'],
    ['a user name and password', 'https://user:pass@control.example.com'],
    ['a query', 'https://control.example.com/?x=1'],
    ['a fragment', 'https://control.example.com/#x'],
  ])('refuses %s', (_label, url) => {
    expect(controlPlaneProblems(linked({ CONTROL_PLANE_URL: url })).join('\n')).toMatch(/CONTROL_PLANE_URL/);
  });
});

describe('the instance credential', () => {
  it.each([
    ['an instance id with a space', { CONTROL_PLANE_INSTANCE_ID: 'acme prod' }, /CONTROL_PLANE_INSTANCE_ID must be/],
    ['an instance id of 201 characters', { CONTROL_PLANE_INSTANCE_ID: 'a'.repeat(201) }, /CONTROL_PLANE_INSTANCE_ID must be/],
    ['a secret of 15 characters', { CONTROL_PLANE_SECRET: 'x'.repeat(15) }, /CONTROL_PLANE_SECRET must be/],
    ['a secret with a space', { CONTROL_PLANE_SECRET: 'x'.repeat(16) + ' y' }, /CONTROL_PLANE_SECRET must be/],
  ] as const)('refuses %s', (_label, over, message) => {
    expect(controlPlaneProblems(linked(over)).join('\n')).toMatch(message);
  });

  it('a problem never quotes the secret', () => {
    const problems = controlPlaneProblems(linked({ NODE_ENV: 'production', CONTROL_PLANE_URL: 'http://x.example', CONTROL_PLANE_SECRET: 'short secret' }));
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join('\n')).not.toContain('short secret');
  });
});

describe('config().controlPlane', () => {
  const names = ['CONTROL_PLANE_URL', 'CONTROL_PLANE_INSTANCE_ID', 'CONTROL_PLANE_SECRET'] as const;
  const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));

  afterEach(() => {
    for (const name of names) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    resetConfigForTests();
  });

  it('is the link when the three variables are set, null when none is', () => {
    for (const name of names) delete process.env[name];
    resetConfigForTests();
    expect(config().controlPlane).toBeNull();
    Object.assign(process.env, { CONTROL_PLANE_URL: 'https://control.example.com', CONTROL_PLANE_INSTANCE_ID: 'acme', CONTROL_PLANE_SECRET: secret });
    resetConfigForTests();
    expect(config().controlPlane).toEqual({ url: 'https://control.example.com', instanceId: 'acme', secret });
  });

  it('a malformed link fails the parse with the variable named, not later', () => {
    Object.assign(process.env, { CONTROL_PLANE_URL: 'https://control.example.com', CONTROL_PLANE_INSTANCE_ID: 'acme' });
    delete process.env.CONTROL_PLANE_SECRET;
    resetConfigForTests();
    expect(() => config()).toThrow(/CONTROL_PLANE_SECRET is required/);
  });
});
