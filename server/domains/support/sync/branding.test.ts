import { describe, expect, it } from 'vitest';
import { operatorBrandingReader } from './branding';
import type { OperatorBranding } from './store';

const brand: OperatorBranding = {
  name: 'Acme',
  logo: { light: null, dark: null },
  favicon: null,
  colors: { primary: '#112233', onPrimary: null, accent: null, onAccent: null },
  supportUrl: null,
  poweredBy: null,
  login: { welcome: null, image: null },
};

function storeOf(read: () => Promise<{ branding: OperatorBranding; fetchedAt: Date } | null>) {
  let reads = 0;
  return {
    get reads() {
      return reads;
    },
    cachedBranding: () => {
      reads += 1;
      return read();
    },
  };
}

describe('the kept operator branding, as pages read it', () => {
  it('is none when the instance is not linked (no store)', async () => {
    expect(await operatorBrandingReader(() => null).read()).toBeNull();
  });

  it('is read from the store and memoised', async () => {
    let time = 0;
    const store = storeOf(async () => ({ branding: brand, fetchedAt: new Date() }));
    const reader = operatorBrandingReader(() => store, { memoMs: 1_000, now: () => time });
    expect(await reader.read()).toEqual(brand);
    expect(await reader.read()).toEqual(brand);
    expect(store.reads).toBe(1);
    time = 1_000;
    await reader.read();
    expect(store.reads).toBe(2);
  });

  it('a kept value that is no longer valid gives none (the environment applies)', async () => {
    const store = storeOf(async () => ({ branding: { ...brand, colors: { ...brand.colors, primary: 'javascript:alert(1)' } }, fetchedAt: new Date() }));
    expect(await operatorBrandingReader(() => store).read()).toBeNull();
  });

  it('never waits on a slow database past its timeout, and survives a failing one', async () => {
    const slow = storeOf(() => new Promise((resolve) => setTimeout(() => resolve({ branding: brand, fetchedAt: new Date() }), 2_000)));
    const started = Date.now();
    expect(await operatorBrandingReader(() => slow, { readTimeoutMs: 50 }).read()).toBeNull();
    expect(Date.now() - started).toBeLessThan(1_000);
    const failing = storeOf(async () => {
      throw new Error('database down');
    });
    expect(await operatorBrandingReader(() => failing).read()).toBeNull();
  });
});
