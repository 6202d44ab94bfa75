import type { LookupAddress } from 'node:dns';
import { afterEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../../core/config';
import { AppError } from '../../core/errors/app-error';
import { checkBaseUrl, normalizeBaseUrl } from './base-url';

const dnsTable: Record<string, string> = { 'api.vendor.test': '93.184.216.34', 'rebind.test': '169.254.169.254', 'inside.test': '10.1.2.3' };

async function lookup(host: string): Promise<LookupAddress[]> {
  if (!Object.hasOwn(dnsTable, host)) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return [{ address: dnsTable[host], family: 4 }];
}

async function reasonOf(promise: Promise<unknown>): Promise<string | null> {
  try {
    await promise;
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('llm.invalid_base_url');
    expect((error as AppError).message).not.toMatch(/\d+\.\d+\.\d+\.\d+/);
    return (error as AppError).details?.reason as string;
  }
}

afterEach(() => {
  delete process.env.LLM_LOCAL_ALLOW_PRIVATE;
  resetConfigForTests();
});

describe('normalizeBaseUrl', () => {
  it.each([
    ['https://api.vendor.test/v1/', 'https://api.vendor.test/v1'],
    ['http://API.Vendor.test:8080', 'http://api.vendor.test:8080'],
    ['https://[2606:4700::1111]/v1', 'https://[2606:4700::1111]/v1'],
  ])('%s → %s', (raw, expected) => {
    expect(normalizeBaseUrl(raw).url).toBe(expected);
  });

  it.each(['ftp://api.vendor.test', 'https://user:pass@api.vendor.test', 'https://api.vendor.test/v1?x=1', 'https://api.vendor.test/#x', 'file:///etc/passwd', 'not a url', 'javascript:alert(1)'])(
    'refuses %s',
    async (raw) => {
      expect(await reasonOf(checkBaseUrl('ai_vendor_a', raw, { lookup }))).toBe('unsupported_url');
    },
  );
});

describe('checkBaseUrl', () => {
  it.each([
    ['ai_vendor_a', 'https://api.vendor.test/v1', null],
    ['ai_vendor_a', 'https://8.8.8.8/v1', null],
    ['ai_vendor_a', 'http://169.254.169.254/latest', 'blocked_address'],
    ['ai_vendor_a', 'http://[::ffff:169.254.169.254]/', 'blocked_address'],
    ['ai_vendor_a', 'http://2852039166/', 'blocked_address'],
    ['ai_vendor_a', 'http://10.0.0.1/', 'blocked_address'],
    ['ai_vendor_a', 'http://127.0.0.1:11434', 'blocked_address'],
    ['ai_vendor_a', 'https://rebind.test/', 'blocked_address'],
    ['ai_vendor_a', 'https://inside.test/', 'blocked_address'],
    ['ai_vendor_a', 'https://nowhere.invalid/', 'host_not_found'],
    ['ai_local', 'http://10.0.0.1:11434', 'blocked_address'],
    ['ai_generic_compatible', 'http://192.168.1.10/v1', 'blocked_address'],
  ] as const)('%s %s → %s', async (provider, raw, reason) => {
    expect(await reasonOf(checkBaseUrl(provider, raw, { lookup }))).toBe(reason);
  });

  it('lets ai_local (only) reach the instance’s network when allowed, never metadata addresses', async () => {
    process.env.LLM_LOCAL_ALLOW_PRIVATE = '1';
    resetConfigForTests();
    expect(await reasonOf(checkBaseUrl('ai_local', 'http://10.0.0.1:11434', { lookup }))).toBeNull();
    expect(await reasonOf(checkBaseUrl('ai_local', 'http://inside.test:11434', { lookup }))).toBeNull();
    expect(await reasonOf(checkBaseUrl('ai_local', 'http://127.0.0.1:11434', { lookup }))).toBeNull();
    expect(await reasonOf(checkBaseUrl('ai_local', 'http://169.254.169.254/', { lookup }))).toBe('blocked_address');
    expect(await reasonOf(checkBaseUrl('ai_local', 'http://rebind.test/', { lookup }))).toBe('blocked_address');
    expect(await reasonOf(checkBaseUrl('ai_vendor_a', 'http://10.0.0.1/', { lookup }))).toBe('blocked_address');
    expect(await reasonOf(checkBaseUrl('ai_generic_compatible', 'http://10.0.0.1/', { lookup }))).toBe('blocked_address');
  });
});
