import { describe, expect, it } from 'vitest';
import { NetworkGuardError } from '../../core/net/network-guard';
import { probeTimeoutError } from '../probe-errors';
import { classifyImapError } from './classify-imap-error';

/** Errors as imapflow raises them on Node 22, recorded against Dovecot 2.3 and small fake servers with imapflow 2.1.2 (2.10.2 still sets every code and field read here). */
function err(message: string, props: Record<string, unknown>): Error {
  return Object.assign(new Error(message), props);
}

const cases: [string, unknown, string, string][] = [
  ['guard: name not found', new NetworkGuardError('host_not_found', 'x'), 'imap.host_not_found', 'dns_not_found'],
  ['guard: private address', new NetworkGuardError('blocked_address', 'x'), 'imap.unreachable', 'address_not_allowed'],
  ['ENOTFOUND', err('getaddrinfo ENOTFOUND nonexistent.invalid', { errno: -3008, code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname: 'nonexistent.invalid' }), 'imap.host_not_found', 'dns_not_found'],
  ['EAI_AGAIN', err('getaddrinfo EAI_AGAIN mail.example.com', { code: 'EAI_AGAIN' }), 'imap.host_not_found', 'dns_not_found'],
  ['ECONNREFUSED', err('connect ECONNREFUSED 127.0.0.1:1', { errno: -111, code: 'ECONNREFUSED', syscall: 'connect', address: '127.0.0.1', port: 1 }), 'imap.unreachable', 'connection_refused'],
  ['EHOSTUNREACH', err('connect EHOSTUNREACH 10.0.0.1:993', { code: 'EHOSTUNREACH' }), 'imap.unreachable', 'host_unreachable'],
  ['ENETUNREACH', err('connect ENETUNREACH', { code: 'ENETUNREACH' }), 'imap.unreachable', 'host_unreachable'],
  ['ETIMEDOUT (socket)', err('connect ETIMEDOUT', { code: 'ETIMEDOUT' }), 'imap.unreachable', 'timeout'],
  ['CONNECT_TIMEOUT', err('Failed to establish connection in required time', { code: 'CONNECT_TIMEOUT' }), 'imap.unreachable', 'timeout'],
  ['GREETING_TIMEOUT (plain to a TLS port)', err('Failed to receive greeting from server in required time. Maybe should use TLS?', { code: 'GREETING_TIMEOUT' }), 'imap.unreachable', 'no_greeting'],
  ['ETIMEOUT (socket inactivity)', err('Socket timeout', { code: 'ETIMEOUT' }), 'imap.unreachable', 'timeout'],
  ['closed right after connect', err('Unexpected close', { code: 'ClosedAfterConnectText' }), 'imap.unreachable', 'connection_closed'],
  ['closed after TLS connect', err('Unexpected close', { code: 'ClosedAfterConnectTLS' }), 'imap.unreachable', 'connection_closed'],
  ['NoConnection', err('Connection not available', { code: 'NoConnection' }), 'imap.unreachable', 'connection_closed'],
  ['ECONNRESET', err('read ECONNRESET', { code: 'ECONNRESET' }), 'imap.unreachable', 'connection_reset'],
  ['not an IMAP server (parser)', err('Unexpected char', { code: 'ParserError4' }), 'imap.unreachable', 'not_imap'],
  ['probe deadline', probeTimeoutError(), 'imap.unreachable', 'timeout'],
  ['self-signed, implicit TLS', err('self-signed certificate', { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }), 'imap.tls_failed', 'self_signed_certificate'],
  ['self-signed, STARTTLS', err('self-signed certificate', { code: 'DEPTH_ZERO_SELF_SIGNED_CERT', tlsFailed: true }), 'imap.tls_failed', 'self_signed_certificate'],
  ['self-signed in chain', err('self-signed certificate in certificate chain', { code: 'SELF_SIGNED_CERT_IN_CHAIN' }), 'imap.tls_failed', 'self_signed_certificate'],
  [
    'certificate for another name',
    err("Hostname/IP does not match certificate's altnames: Host: mail.example.com. is not in the cert's altnames: DNS:localhost, IP Address:127.0.0.1", {
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
      reason: "Host: mail.example.com. is not in the cert's altnames: DNS:localhost, IP Address:127.0.0.1",
      host: 'mail.example.com',
    }),
    'imap.tls_failed',
    'certificate_name_mismatch',
  ],
  ['expired', err('certificate has expired', { code: 'CERT_HAS_EXPIRED' }), 'imap.tls_failed', 'certificate_expired'],
  ['unknown issuer', err('unable to verify the first certificate', { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }), 'imap.tls_failed', 'untrusted_certificate'],
  [
    'TLS to a plaintext port',
    err('C0AC26CC127F0000:error:0A00010B:SSL routines:tls_validate_record_header:wrong version number', {
      library: 'SSL routines',
      reason: 'wrong version number',
      code: 'ERR_SSL_WRONG_VERSION_NUMBER',
    }),
    'imap.tls_failed',
    'not_tls',
  ],
  ['other OpenSSL alert', err('sslv3 alert handshake failure', { library: 'SSL routines', code: 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE' }), 'imap.tls_failed', 'tls_handshake_failed'],
  [
    'closed during the TLS handshake',
    err('Client network socket disconnected before secure TLS connection was established', { code: 'ECONNRESET', host: '127.0.0.1', port: 33177 }),
    'imap.tls_failed',
    'tls_handshake_aborted',
  ],
  ['STARTTLS upgrade timeout', err('Failed to upgrade connection in required time', { code: 'UPGRADE_TIMEOUT' }), 'imap.tls_failed', 'starttls_timeout'],
  ['STARTTLS injection', err('Unexpected data after STARTTLS', { code: 'STARTTLS_INJECTION' }), 'imap.tls_failed', 'starttls_injection'],
  ['STARTTLS failed, no code', err('STARTTLS failed', { tlsFailed: true }), 'imap.tls_failed', 'tls_handshake_failed'],
  [
    'wrong password (Dovecot)',
    err('Command failed', {
      response: '2 NO [AUTHENTICATIONFAILED] Authentication failed.',
      responseStatus: 'NO',
      executedCommand: '2 AUTHENTICATE PLAIN',
      responseText: 'Authentication failed.',
      serverResponseCode: 'AUTHENTICATIONFAILED',
      authenticationFailed: true,
    }),
    'imap.auth_failed',
    'credentials_refused',
  ],
  [
    'LOGIN refused without a response code',
    err('Command failed', { responseStatus: 'NO', executedCommand: '3 LOGIN "a" "(hidden)"', responseText: 'Invalid credentials' }),
    'imap.auth_failed',
    'credentials_refused',
  ],
  ['AUTHORIZATIONFAILED', err('Command failed', { serverResponseCode: 'AUTHORIZATIONFAILED', responseStatus: 'NO' }), 'imap.auth_failed', 'credentials_refused'],
  [
    'temporarily unavailable',
    err('Command failed', { responseStatus: 'NO', executedCommand: '2 LOGIN', serverResponseCode: 'UNAVAILABLE', responseText: 'Try later' }),
    'imap.unreachable',
    'server_unavailable',
  ],
  [
    'login requires TLS',
    err('Command failed', { responseStatus: 'NO', executedCommand: '2 LOGIN', serverResponseCode: 'PRIVACYREQUIRED' }),
    'imap.tls_failed',
    'tls_required',
  ],
  ['a string', 'boom', 'imap.unreachable', 'unknown'],
  ['null', null, 'imap.unreachable', 'unknown'],
  ['plain Error', new Error('something'), 'imap.unreachable', 'unknown'],
];

describe('classifyImapError', () => {
  it.each(cases)('%s → %s', (_name, error, code, reason) => {
    const result = classifyImapError(error);
    expect(result.code).toBe(code);
    expect(result.reason).toBe(reason);
    expect(result.detail.length).toBeGreaterThan(10);
  });

  it('never shows the address from an error message', () => {
    for (const [, error] of cases) {
      const { detail } = classifyImapError(error, { hide: ['127.0.0.1'] });
      expect(detail).not.toMatch(/\d+\.\d+\.\d+\.\d+/);
      expect(detail).not.toContain('altnames');
    }
  });

  it('quotes the server\'s refusal, unless it contains the password or an address', () => {
    const refusal = (responseText: string) =>
      err('Command failed', { authenticationFailed: true, responseStatus: 'NO', executedCommand: '2 AUTHENTICATE PLAIN', responseText });
    expect(classifyImapError(refusal('Application-specific password required'), { hide: ['hunter2-secret'] }).detail).toContain(
      'It said: Application-specific password required',
    );
    const withPassword = classifyImapError(refusal('bad password hunter2-secret'), { hide: ['hunter2-secret'] }).detail;
    expect(withPassword).not.toContain('hunter2-secret');
    expect(withPassword).toBe('The server refused the user name or password.');
    expect(classifyImapError(refusal('Login from 10.1.2.3 refused')).detail).not.toContain('10.1.2.3');
    expect(classifyImapError(refusal('x'.repeat(500))).detail.length).toBeLessThan(300);
  });
});
