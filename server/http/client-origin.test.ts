import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientIpHeader, clientLocalHeader, clientProtoHeader } from '../core/http/client-headers';
import { clientAddressOf, proxyTrustOf, stampClientOrigin, type ProxyTrust } from './client-origin';

const none: ProxyTrust = proxyTrustOf({ TRUST_PROXY: 0, TRUST_PROXY_CIDRS: null });
const oneHop: ProxyTrust = proxyTrustOf({ TRUST_PROXY: 1, TRUST_PROXY_CIDRS: null });
const twoHops: ProxyTrust = proxyTrustOf({ TRUST_PROXY: 2, TRUST_PROXY_CIDRS: null });
const networks: ProxyTrust = proxyTrustOf({ TRUST_PROXY: 0, TRUST_PROXY_CIDRS: '10.0.0.0/8, fd00::/8' });

describe('hardening 6: the client address is the one the trusted proxies saw (X-Forwarded-For read from the right)', () => {
  it.each<[string, ProxyTrust, string | null, string | undefined, string | null, boolean]>([
    // name, trust, socket peer, X-Forwarded-For, client ip, via proxy
    ['no proxy: the peer, forwarded header ignored', none, '198.51.100.9', '127.0.0.1', '198.51.100.9', false],
    ['no proxy: IPv4-mapped peer normalised', none, '::ffff:198.51.100.9', undefined, '198.51.100.9', false],
    ['one hop: the entry the proxy appended, not the client-written one', oneHop, '10.0.0.2', '6.6.6.6, 203.0.113.7', '203.0.113.7', true],
    ['one hop: a client-written loopback on the left is ignored', oneHop, '10.0.0.2', '127.0.0.1, 203.0.113.7', '203.0.113.7', true],
    ['one hop: without the header, the proxy itself', oneHop, '10.0.0.2', undefined, '10.0.0.2', true],
    ['one hop: port and brackets removed', oneHop, '10.0.0.2', '6.6.6.6, [2001:db8::7]:4431', '2001:db8::7', true],
    ['one hop: a garbage entry stops the walk at the proxy', oneHop, '10.0.0.2', '203.0.113.7, not-an-ip', '10.0.0.2', true],
    ['two hops: the second entry from the right', twoHops, '10.0.0.2', '6.6.6.6, 203.0.113.7, 10.0.0.3', '203.0.113.7', true],
    ['two hops: fewer entries than hops give the leftmost', twoHops, '10.0.0.2', '203.0.113.7', '203.0.113.7', true],
    ['networks: walk past trusted proxies to the first outside', networks, '10.0.0.2', '6.6.6.6, 203.0.113.7, 10.1.1.1, 10.2.2.2', '203.0.113.7', true],
    ['networks: IPv6 proxies', networks, 'fd00::2', '2001:db8::9, fd00::3', '2001:db8::9', true],
    ['networks: a peer outside them is the client, header ignored', networks, '198.51.100.9', '127.0.0.1', '198.51.100.9', false],
    ['networks: all trusted gives the leftmost', networks, '10.0.0.2', '10.9.9.9', '10.9.9.9', true],
    ['no peer address at all', none, undefined as unknown as string, '1.2.3.4', null, false],
  ])('%s', (_name, trust, peer, forwardedFor, ip, viaProxy) => {
    expect(clientAddressOf(peer, forwardedFor, trust)).toEqual({ ip, viaProxy });
  });

  it('reads a list spread over several header lines as one list', () => {
    expect(clientAddressOf('10.0.0.2', ['6.6.6.6', '203.0.113.7'], oneHop)).toEqual({ ip: '203.0.113.7', viaProxy: true });
  });
});

function request(peer: string, headers: Record<string, string>, encrypted = false): IncomingMessage {
  return { socket: { remoteAddress: peer, encrypted }, headers: { ...headers } } as unknown as IncomingMessage;
}

describe('hardening 6: the HTTPS rule’s loopback exemption needs a real loopback peer', () => {
  it.each<[string, ProxyTrust, string, Record<string, string>, boolean]>([
    ['a browser on this machine at http://localhost', none, '127.0.0.1', { host: 'localhost:3000' }, true],
    ['at http://[::1]', none, '::1', { host: '[::1]:3000' }, true],
    ['a remote peer naming a loopback host', none, '198.51.100.9', { host: 'localhost:3000' }, false],
    ['a loopback peer under another name', none, '127.0.0.1', { host: 'mail.example.test' }, false],
    ['a forged X-Forwarded-For: 127.0.0.1 through a trusted proxy', oneHop, '10.0.0.2', { host: 'localhost', 'x-forwarded-for': '127.0.0.1' }, false],
    ['a proxy on this machine (trusted): never local', oneHop, '127.0.0.1', { host: 'localhost:3000', 'x-forwarded-for': '127.0.0.1' }, false],
    ['a proxy on this machine (not declared) that forwarded the request', none, '127.0.0.1', { host: 'localhost:3000', 'x-forwarded-for': '203.0.113.7' }, false],
    ['a client copy of the stamped header', none, '198.51.100.9', { host: 'localhost', [clientLocalHeader]: '1' }, false],
  ])('%s → local %s', (_name, trust, peer, headers, local) => {
    const req = request(peer, headers);
    stampClientOrigin(req, trust);
    expect(req.headers[clientLocalHeader] === '1').toBe(local);
  });
});

describe('stampClientOrigin', () => {
  it('overwrites client copies of the stamped headers', () => {
    const req = request('198.51.100.9', { [clientIpHeader]: '127.0.0.1', [clientProtoHeader]: 'https' });
    stampClientOrigin(req, none);
    expect(req.headers[clientIpHeader]).toBe('198.51.100.9');
    expect(req.headers[clientProtoHeader]).toBe('http');
  });

  it('takes the scheme from the nearest trusted proxy only', () => {
    const proxied = request('10.0.0.2', { 'x-forwarded-proto': 'http, https' });
    stampClientOrigin(proxied, oneHop);
    expect(proxied.headers[clientProtoHeader]).toBe('https');
    const direct = request('198.51.100.9', { 'x-forwarded-proto': 'https' });
    stampClientOrigin(direct, none);
    expect(direct.headers[clientProtoHeader]).toBe('http');
  });
});
