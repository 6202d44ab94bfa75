import { describe, expect, it } from 'vitest';
import { prototypeNames } from '../../testing/prototype-names';
import { allowedHostOf, isHostAllowed, normaliseAllowedHost, normaliseAllowedHosts } from './allowed-hosts';

describe('allowed hosts: normalising what people write', () => {
  it.each([
    ['API.Example.com', 'api.example.com'],
    ['  api.example.com.  ', 'api.example.com'],
    ['api.example.com:443', 'api.example.com'],
    ['api.example.com:80', 'api.example.com'],
    ['api.example.com:8443', 'api.example.com:8443'],
    ['https://api.example.com', 'https://api.example.com'],
    ['https://api.example.com/', 'https://api.example.com'],
    ['HTTPS://API.example.com:443', 'https://api.example.com'],
    ['http://intranet:8080', 'http://intranet:8080'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['127.0.0.1:3000', '127.0.0.1:3000'],
    ['0x7f.1', '127.0.0.1'],
    ['[2001:DB8::1]:8443', '[2001:db8::1]:8443'],
    ['constructor', 'constructor'],
  ])('%s → %s', (text, entry) => {
    expect(normaliseAllowedHost(text)).toEqual({ ok: true, entry });
  });

  it.each([
    ['*.example.com', 'wildcard'],
    ['*', 'wildcard'],
    ['ftp://files.example.com', 'scheme'],
    ['javascript://x', 'scheme'],
    ['api.example.com/v1', 'not_only_host'],
    ['https://api.example.com/v1', 'not_only_host'],
    ['api.example.com?x=1', 'not_only_host'],
    ['api.example.com#top', 'not_only_host'],
    ['user:pass@api.example.com', 'not_only_host'],
    ['api example.com', 'not_only_host'],
    ['', 'not_a_host'],
    ['   ', 'not_a_host'],
    ['-bad-.example', 'not_a_host'],
    ['a..b', 'not_a_host'],
    ['api.example.com:99999', 'not_a_host'],
    ['x'.repeat(301), 'not_a_host'],
    [`${'a'.repeat(64)}.example`, 'not_a_host'],
  ])('refuses %s (%s)', (text, reason) => {
    expect(normaliseAllowedHost(text)).toMatchObject({ ok: false, reason, message: expect.any(String) });
  });

  it('refuses names of Object.prototype that are not host names, and keeps the others as plain text', () => {
    for (const name of prototypeNames) {
      const parsed = normaliseAllowedHost(name);
      if (/^[a-z]+$/i.test(name)) expect(parsed).toEqual({ ok: true, entry: name.toLowerCase() });
      else expect(parsed.ok).toBe(false);
    }
  });

  it('drops duplicates after normalising, keeping the order', () => {
    expect(normaliseAllowedHosts(['B.example', 'a.example', 'b.example:443', 'HTTPS://a.example'])).toEqual(['b.example', 'a.example', 'https://a.example']);
  });
});

describe('allowed hosts: matching URLs', () => {
  const allowed = (url: string, entries: string[]) => isHostAllowed(new URL(url), normaliseAllowedHosts(entries));

  it('a host covers http and https on their standard ports only', () => {
    expect(allowed('https://api.example.com/v1/x?y=1', ['api.example.com'])).toBe(true);
    expect(allowed('http://api.example.com/', ['api.example.com'])).toBe(true);
    expect(allowed('https://api.example.com:8443/', ['api.example.com'])).toBe(false);
    expect(allowed('http://api.example.com:443/', ['api.example.com'])).toBe(false);
    expect(allowed('https://API.EXAMPLE.COM./', ['api.example.com'])).toBe(true);
  });

  it('never covers another host: subdomains, parents, look-alikes', () => {
    for (const url of ['https://evil.api.example.com/', 'https://example.com/', 'https://api.example.com.evil.test/', 'https://apiexample.com/', 'https://api.example.co/']) {
      expect(allowed(url, ['api.example.com'])).toBe(false);
    }
  });

  it('a host with a port covers that port only; an origin its scheme only', () => {
    expect(allowed('https://api.example.com:8443/', ['api.example.com:8443'])).toBe(true);
    expect(allowed('http://api.example.com:8443/', ['api.example.com:8443'])).toBe(true);
    expect(allowed('https://api.example.com/', ['api.example.com:8443'])).toBe(false);
    expect(allowed('https://api.example.com/', ['https://api.example.com'])).toBe(true);
    expect(allowed('http://api.example.com/', ['https://api.example.com'])).toBe(false);
  });

  it('IDN and IP spellings match their normal form', () => {
    expect(allowed('https://xn--bcher-kva.example/', ['bücher.example'])).toBe(true);
    expect(allowed('https://bücher.example/', ['xn--bcher-kva.example'])).toBe(true);
    expect(allowed('http://2130706433:3000/', ['127.0.0.1:3000'])).toBe(true);
    expect(allowed('http://[2001:db8::1]:8443/', ['[2001:DB8:0::1]:8443'])).toBe(true);
  });

  it('no entry, or a scheme other than http(s), covers nothing', () => {
    expect(allowed('https://api.example.com/', [])).toBe(false);
    expect(isHostAllowed(new URL('ftp://api.example.com/'), ['api.example.com'])).toBe(false);
  });

  it('the entry a first use binds to covers that origin', () => {
    for (const url of ['https://api.example.com/x', 'http://127.0.0.1:3000/y', 'http://api.example.com:443/', 'https://api.example.com:80/']) {
      const entry = allowedHostOf(new URL(url));
      expect(normaliseAllowedHost(entry)).toEqual({ ok: true, entry });
      expect(isHostAllowed(new URL(url), [entry])).toBe(true);
    }
    expect(allowedHostOf(new URL('http://127.0.0.1:3000/y'))).toBe('127.0.0.1:3000');
  });
});
