/**
 * `GET /api/v1/branding` through the real API handler: the operator's brand (`source: control_plane`) when the
 * instance is linked and the sync kept one, the environment's (`source: environment`) otherwise. The store is
 * the memory one standing in for sup-core's database store (bound in default-store.ts at the merge).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetConfigForTests } from '../../../core/config';
import { MemorySupportStore } from '../../../testing/control-plane/memory-store';
import { call } from '../../../testing/rest-client';
import { useTestDatabase } from '../../../testing/test-database';
import type { OperatorBranding, SupportSyncStore } from './store';

const bound = vi.hoisted(() => ({ store: null as SupportSyncStore | null }));
vi.mock('./default-store', () => ({ defaultSupportSyncStore: () => bound.store }));

await useTestDatabase();
// Only Date is faked: the reader's memo is moved past between tests, its timers stay real.
vi.useFakeTimers({ toFake: ['Date'] });

const brand: OperatorBranding = {
  name: 'Acme Mail',
  logo: { light: 'https://cdn.acme.test/light.svg', dark: 'https://cdn.acme.test/dark.svg' },
  favicon: 'https://cdn.acme.test/favicon.ico',
  colors: { primary: '#112233', onPrimary: '#FFFFFF', accent: null, onAccent: null },
  supportUrl: 'https://help.acme.test',
  poweredBy: 'Acme',
  login: { welcome: { en: 'Welcome to Acme', fr: 'Bienvenue chez Acme' }, image: null },
};

function link(linked: boolean) {
  if (linked) {
    process.env.CONTROL_PLANE_URL = 'https://control.acme.test';
    process.env.CONTROL_PLANE_INSTANCE_ID = 'acme-1';
    process.env.CONTROL_PLANE_SECRET = 'acme-secret-0123456789';
  } else {
    delete process.env.CONTROL_PLANE_URL;
    delete process.env.CONTROL_PLANE_INSTANCE_ID;
    delete process.env.CONTROL_PLANE_SECRET;
  }
  process.env.BRAND_NAME = 'Env Brand';
  process.env.BRAND_COLOR_ACCENT = '#ABCDEF';
  resetConfigForTests();
}

afterEach(() => {
  link(false);
  // The pages' reader keeps what it read for 15 s: each test starts past that.
  vi.setSystemTime(Date.now() + 60_000);
});

describe('GET /api/v1/branding', () => {
  it('answers the operator brand with source control_plane when linked and fetched', async () => {
    link(true);
    const store = new MemorySupportStore();
    await store.saveBranding(brand, new Date());
    bound.store = store;

    const response = await call('GET', '/api/v1/branding');

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      name: 'Acme Mail',
      source: 'control_plane',
      logo: brand.logo,
      favicon: brand.favicon,
      colors: { primary: '#112233', onPrimary: '#FFFFFF', accent: '#ABCDEF', onAccent: null },
      supportUrl: 'https://help.acme.test',
      poweredBy: 'Acme',
      login: { welcome: { en: 'Welcome to Acme', fr: 'Bienvenue chez Acme' }, image: null },
      instance: { suspended: false },
    });
  });

  it('answers the environment brand when linked but never fetched', async () => {
    link(true);
    bound.store = new MemorySupportStore();
    const response = await call('GET', '/api/v1/branding');
    expect(response.body).toMatchObject({ name: 'Env Brand', source: 'environment', colors: { accent: '#ABCDEF' } });
  });

  it('answers the environment brand when not linked, whatever was kept', async () => {
    link(false);
    const store = new MemorySupportStore();
    await store.saveBranding(brand, new Date());
    bound.store = store;
    const response = await call('GET', '/api/v1/branding');
    expect(response.body).toMatchObject({ name: 'Env Brand', source: 'environment' });
  });
});
