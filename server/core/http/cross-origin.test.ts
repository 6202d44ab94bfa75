import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error';
import { clientProtoHeader } from './client-headers';
import { assertSameOrigin, crossOriginReason, isStateChanging, originOf } from './cross-origin';

function headers(values: Record<string, string>): Headers {
  return new Headers({ host: '127.0.0.1:3000', [clientProtoHeader]: 'http', ...values });
}

describe('hardening 10: cross-site requests are told apart from the application’s own', () => {
  it.each([
    ['no Origin and no Sec-Fetch-Site (a program using a cookie)', {}, null, null],
    ['Origin equal to the addressed origin', { origin: 'http://127.0.0.1:3000' }, null, null],
    ['Origin in another letter case', { origin: 'HTTP://127.0.0.1:3000' }, null, null],
    ['Sec-Fetch-Site same-origin', { 'sec-fetch-site': 'same-origin', origin: 'http://127.0.0.1:3000' }, null, null],
    ['Sec-Fetch-Site none (typed in the address bar)', { 'sec-fetch-site': 'none' }, null, null],
    ['Origin equal to PUBLIC_URL behind a proxy', { origin: 'https://mail.example.com', host: '10.0.0.5:3000' }, 'https://mail.example.com/base/', null],
    ['a foreign Origin', { origin: 'http://attacker.example' }, null, 'foreign_origin'],
    ['another app on the same host, another port', { origin: 'http://127.0.0.1:4000' }, null, 'foreign_origin'],
    ['the right host over the wrong scheme', { origin: 'https://127.0.0.1:3000' }, null, 'foreign_origin'],
    ['Origin: null', { origin: 'null' }, null, 'foreign_origin'],
    ['a non-http Origin', { origin: 'file://' }, null, 'foreign_origin'],
    ['an absurdly long Origin', { origin: `http://${'a'.repeat(400)}.example` }, null, 'foreign_origin'],
    ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site' }, null, 'cross_site_fetch'],
    ['Sec-Fetch-Site same-site (a sibling subdomain)', { 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:3000' }, null, 'cross_site_fetch'],
    ['a foreign Origin even when PUBLIC_URL is set', { origin: 'http://attacker.example' }, 'https://mail.example.com', 'foreign_origin'],
  ] as const)('%s', (_name, values, publicUrl, expected) => {
    expect(crossOriginReason(headers(values), publicUrl)).toBe(expected);
  });

  it('compares with https when the client reached us over TLS', () => {
    const secure = new Headers({ host: 'mail.example.com', [clientProtoHeader]: 'https', origin: 'https://mail.example.com' });
    expect(crossOriginReason(secure, null)).toBeNull();
  });

  it('throws 403 auth.cross_origin with the reason', () => {
    let thrown: unknown;
    try {
      assertSameOrigin(headers({ origin: 'http://attacker.example' }), null);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).status).toBe(403);
    expect((thrown as AppError).code).toBe('auth.cross_origin');
    expect((thrown as AppError).details).toEqual({ reason: 'foreign_origin' });
  });

  it('guards every method but GET, HEAD and OPTIONS', () => {
    expect(['POST', 'PUT', 'PATCH', 'DELETE'].every(isStateChanging)).toBe(true);
    expect(['GET', 'HEAD', 'OPTIONS'].some(isStateChanging)).toBe(false);
  });

  it('reads only http(s) origins', () => {
    expect(originOf('http://Example.COM:80/path')).toBe('http://example.com');
    expect(originOf('javascript:alert(1)')).toBeNull();
    expect(originOf('not a url')).toBeNull();
  });
});
