import { describe, expect, it } from 'vitest';
import { defaultModelOf, isModelAllowed, isRefusal, modelsOf, resolveModel, type RoutableConnection, type RoutingEntry } from './resolve';

const conn = (id: string, provider: string, options: { isDefault?: boolean; enabledModels?: string[] | null } = {}): RoutableConnection => ({
  id,
  provider,
  isDefault: options.isDefault ?? false,
  enabledModels: options.enabledModels ?? null,
});

const a = conn('a', 'ai_vendor_a');
const b = conn('b', 'ai_vendor_b', { enabledModels: ['claude-haiku-4-5', 'claude-sonnet-4-5'] });
const generic = conn('g', 'ai_generic_compatible');
const defaultC = conn('c', 'ai_vendor_c', { isDefault: true });

describe('resolveModel', () => {
  it.each<[string, RoutingEntry[], RoutableConnection[], { id: string; model: string; source: string } | null]>([
    ['nothing configured', [], [], null],
    ['the purpose’s routing', [{ purpose: 'classify', connectionId: 'b', model: 'claude-sonnet-4-5' }], [a, b, defaultC], { id: 'b', model: 'claude-sonnet-4-5', source: 'purpose' }],
    ['another purpose’s routing is not used', [{ purpose: 'compose', connectionId: 'b', model: 'claude-sonnet-4-5' }], [a, b, defaultC], { id: 'c', model: 'gemini-2.5-flash', source: 'instanceDefault' }],
    ['routing to a deleted connection falls back to the default', [{ purpose: 'classify', connectionId: 'gone', model: 'x' }], [a, defaultC], { id: 'c', model: 'gemini-2.5-flash', source: 'instanceDefault' }],
    ['routing to a model no longer enabled falls back', [{ purpose: 'classify', connectionId: 'b', model: 'claude-opus-4-1' }], [a, b], { id: 'a', model: 'gpt-4.1-mini', source: 'configurationOrder' }],
    ['the default with its first enabled model', [], [a, conn('d', 'ai_vendor_b', { isDefault: true, enabledModels: ['claude-haiku-4-5'] })], { id: 'd', model: 'claude-haiku-4-5', source: 'instanceDefault' }],
    ['no default: the first connection in configuration order', [], [b, a], { id: 'b', model: 'claude-haiku-4-5', source: 'configurationOrder' }],
    ['a generic connection without models cannot serve unasked', [], [generic, a], { id: 'a', model: 'gpt-4.1-mini', source: 'configurationOrder' }],
    ['a generic default without models is skipped', [], [conn('g2', 'ai_generic_compatible', { isDefault: true }), b], { id: 'b', model: 'claude-haiku-4-5', source: 'configurationOrder' }],
    ['only a generic connection without models: nobody serves', [], [generic], null],
    ['a generic connection with enabled models serves', [], [conn('g3', 'ai_generic_compatible', { enabledModels: ['local-7b'] })], { id: 'g3', model: 'local-7b', source: 'configurationOrder' }],
  ])('%s', (_label, routing, connections, expected) => {
    const choice = resolveModel('classify', { routing, connections });
    expect(choice && { id: choice.connection.id, model: choice.model, source: choice.source }).toEqual(expected);
  });

  it('serves a requested model on the connection the order designates', () => {
    const choice = resolveModel('assistant', { routing: [], connections: [a, defaultC], requested: { model: 'gemini-2.5-pro' } });
    expect(choice).toMatchObject({ connection: { id: 'c' }, model: 'gemini-2.5-pro', source: 'instanceDefault' });
  });

  it('serves a requested model on the first connection of the requested provider', () => {
    const choice = resolveModel('assistant', { routing: [], connections: [a, generic, defaultC], requested: { model: 'my-model', provider: 'ai_generic_compatible' } });
    expect(choice).toMatchObject({ connection: { id: 'g' }, model: 'my-model', source: 'configurationOrder' });
  });

  it('serves a requested model on the requested connection', () => {
    expect(resolveModel('general', { routing: [], connections: [a, b], requested: { model: 'claude-haiku-4-5', connectionId: 'b' } })).toMatchObject({
      connection: { id: 'b' },
      source: 'requested',
    });
  });

  it.each([
    ['a model outside enabledModels', { model: 'claude-opus-4-1', connectionId: 'b' }, 'model_not_allowed'],
    ['a model outside the designated connection’s enabledModels', { model: 'claude-opus-4-1', provider: 'ai_vendor_b' }, 'model_not_allowed'],
    ['an unknown connection', { model: 'm', connectionId: 'nope' }, 'connection_not_found'],
    ['a connection of another provider', { model: 'm', connectionId: 'a', provider: 'ai_vendor_b' }, 'connection_not_found'],
    ['a provider without connection', { model: 'm', provider: 'ai_vendor_e' }, 'connection_not_found'],
  ])('refuses %s', (_label, requested, refused) => {
    const result = resolveModel('general', { routing: [], connections: [a, b], requested });
    expect(isRefusal(result)).toBe(true);
    expect(result).toEqual({ refused });
  });

  it('answers null for a requested model when nothing is configured', () => {
    expect(resolveModel('general', { routing: [], connections: [], requested: { model: 'm' } })).toBeNull();
  });

  it('reads purposes as plain strings, prototype names included', () => {
    for (const purpose of ['__proto__', 'constructor', 'toString']) {
      expect(resolveModel(purpose, { routing: [{ purpose: 'classify', connectionId: 'b', model: 'claude-haiku-4-5' }], connections: [a] })).toMatchObject({ connection: { id: 'a' } });
    }
  });
});

describe('models of a connection', () => {
  it('restricts to enabled models, else suggests the catalogue', () => {
    expect(modelsOf(b)).toEqual({ models: ['claude-haiku-4-5', 'claude-sonnet-4-5'], restricted: true });
    expect(modelsOf(a)).toMatchObject({ restricted: false, models: expect.arrayContaining(['gpt-4.1-mini']) });
    expect(modelsOf(generic)).toEqual({ models: [], restricted: false });
    expect(modelsOf(conn('e', 'ai_vendor_a', { enabledModels: [] }))).toMatchObject({ restricted: false });
  });

  it('allows any model without enabledModels', () => {
    expect(isModelAllowed(a, 'anything')).toBe(true);
    expect(isModelAllowed(b, 'claude-haiku-4-5')).toBe(true);
    expect(isModelAllowed(b, 'CLAUDE-HAIKU-4-5')).toBe(false);
    expect(defaultModelOf(generic)).toBeNull();
  });
});
