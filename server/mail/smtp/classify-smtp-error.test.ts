import { describe, expect, it } from 'vitest';
import { NetworkGuardError } from '../../core/net/network-guard';
import { probeTimeoutError } from '../probe-errors';
import { classifySmtpError } from './classify-smtp-error';

/** Errors as nodemailer 10's verify() raises them on Node 22 (recorded against smtp-server 3 and small fake servers). */
function err(message: string, props: Record<string, unknown>): Error {
  return Object.assign(new Error(message), props);
}

const cases: [string, unknown, string, string][] = [
  ['guard: name not found', new NetworkGuardError('host_not_found', 'x'), 'smtp.host_not_found', 'dns_not_found'],
  ['guard: private address', new NetworkGuardError('blocked_address', 'x'), 'smtp.unreachable', 'address_not_allowed'],
  [
    'EDNS',
    err('getaddrinfo ENOTFOUND nonexistent.invalid', { errno: -3008, code: 'EDNS', syscall: 'getaddrinfo', hostname: 'nonexistent.invalid', originalCode: 'ENOTFOUND', command: 'CONN' }),
    'smtp.host_not_found',
    'dns_not_found',
  ],
  ['bare ENOTFOUND', err('getaddrinfo ENOTFOUND x', { code: 'ENOTFOUND' }), 'smtp.host_not_found', 'dns_not_found'],
  [
    'refused',
    err('connect ECONNREFUSED 127.0.0.1:1', { errno: -111, code: 'ESOCKET', syscall: 'connect', address: '127.0.0.1', port: 1, originalCode: 'ECONNREFUSED', command: 'CONN' }),
    'smtp.unreachable',
    'connection_refused',
  ],
  ['host unreachable', err('connect EHOSTUNREACH', { code: 'ESOCKET', originalCode: 'EHOSTUNREACH', command: 'CONN' }), 'smtp.unreachable', 'host_unreachable'],
  ['connect timeout', err('Connection timeout', { timeoutType: 'CONNECT_TIMEOUT', code: 'ETIMEDOUT', command: 'CONN' }), 'smtp.unreachable', 'timeout'],
  ['greeting timeout (plain to a TLS port)', err('Greeting never received', { timeoutType: 'GREETING_TIMEOUT', code: 'ETIMEDOUT', command: 'CONN' }), 'smtp.unreachable', 'no_greeting'],
  ['socket timeout', err('Timeout', { code: 'ETIMEDOUT', command: 'EHLO' }), 'smtp.unreachable', 'timeout'],
  ['closed at once', err('Connection closed unexpectedly', { code: 'ECONNECTION', command: 'CONN' }), 'smtp.unreachable', 'connection_closed'],
  ['an HTTP server', err('Invalid greeting. response=HTTP/1.1 400 Bad Request', { code: 'EPROTOCOL', response: 'HTTP/1.1 400 Bad Request', command: 'CONN' }), 'smtp.unreachable', 'not_smtp'],
  ['reset', err('read ECONNRESET', { code: 'ESOCKET', originalCode: 'ECONNRESET', command: 'EHLO' }), 'smtp.unreachable', 'connection_reset'],
  ['probe deadline', probeTimeoutError(), 'smtp.unreachable', 'timeout'],
  ['self-signed, implicit TLS', err('self-signed certificate', { code: 'ESOCKET', originalCode: 'DEPTH_ZERO_SELF_SIGNED_CERT', command: 'CONN' }), 'smtp.tls_failed', 'self_signed_certificate'],
  [
    'certificate for another name',
    err("Hostname/IP does not match certificate's altnames: Host: mail.example.com. is not in the cert's altnames: DNS:localhost, IP Address:127.0.0.1", {
      code: 'ESOCKET',
      reason: "Host: mail.example.com. is not in the cert's altnames: DNS:localhost, IP Address:127.0.0.1",
      host: 'mail.example.com',
      originalCode: 'ERR_TLS_CERT_ALTNAME_INVALID',
      command: 'CONN',
    }),
    'smtp.tls_failed',
    'certificate_name_mismatch',
  ],
  ['expired', err('certificate has expired', { code: 'ESOCKET', originalCode: 'CERT_HAS_EXPIRED' }), 'smtp.tls_failed', 'certificate_expired'],
  [
    'TLS to a plaintext port',
    err('C09CD067C87F0000:error:0A00010B:SSL routines:tls_validate_record_header:wrong version number', {
      library: 'SSL routines',
      reason: 'wrong version number',
      code: 'ESOCKET',
      originalCode: 'ERR_SSL_WRONG_VERSION_NUMBER',
      command: 'CONN',
    }),
    'smtp.tls_failed',
    'not_tls',
  ],
  [
    'closed during the TLS handshake',
    err('Client network socket disconnected before secure TLS connection was established', { code: 'ESOCKET', host: '127.0.0.1', port: 41719, originalCode: 'ECONNRESET', command: 'CONN' }),
    'smtp.tls_failed',
    'tls_handshake_aborted',
  ],
  ['STARTTLS failed', err('Error initiating TLS - Error: write EPROTO', { code: 'ETLS', command: 'STARTTLS' }), 'smtp.tls_failed', 'tls_handshake_failed'],
  [
    'wrong password',
    err('Invalid login: 535 Invalid username or password', { code: 'EAUTH', response: '535 Invalid username or password', responseCode: 535, permanent: true, command: 'AUTH PLAIN' }),
    'smtp.auth_failed',
    'credentials_refused',
  ],
  [
    'wrong password (5.7.8)',
    err('Invalid login: 535-5.7.8 Username and Password not accepted', { code: 'EAUTH', response: '535-5.7.8 Username and Password not accepted', responseCode: 535, command: 'AUTH LOGIN' }),
    'smtp.auth_failed',
    'credentials_refused',
  ],
  ['no shared mechanism', err('Missing credentials for "PLAIN"', { code: 'EAUTH', command: 'API' }), 'smtp.auth_failed', 'no_shared_mechanism'],
  [
    'AUTH before STARTTLS (538)',
    err('Invalid login: 538 Error: Must issue a STARTTLS command first', { code: 'EAUTH', response: '538 Error: Must issue a STARTTLS command first', responseCode: 538, command: 'AUTH PLAIN' }),
    'smtp.tls_failed',
    'tls_required',
  ],
  [
    'AUTH before STARTTLS (530)',
    err('Invalid login: 530 5.7.0 Must issue a STARTTLS command first', { code: 'EAUTH', response: '530 5.7.0 Must issue a STARTTLS command first', responseCode: 530 }),
    'smtp.tls_failed',
    'tls_required',
  ],
  ['temporary AUTH failure', err('Invalid login: 454 4.7.0 Temporary authentication failure', { code: 'EAUTH', response: '454 4.7.0 Temporary authentication failure', responseCode: 454 }), 'smtp.unreachable', 'server_unavailable'],
  ['a string', 'boom', 'smtp.unreachable', 'unknown'],
  ['undefined', undefined, 'smtp.unreachable', 'unknown'],
];

describe('classifySmtpError', () => {
  it.each(cases)('%s → %s', (_name, error, code, reason) => {
    const result = classifySmtpError(error);
    expect(result.code).toBe(code);
    expect(result.reason).toBe(reason);
    expect(result.detail.length).toBeGreaterThan(10);
  });

  it('never shows an address from an error message', () => {
    for (const [, error] of cases) expect(classifySmtpError(error).detail).not.toMatch(/\d+\.\d+\.\d+\.\d+/);
  });

  it('quotes the server\'s refusal, unless it contains the password', () => {
    const refusal = (response: string) => err(`Invalid login: ${response}`, { code: 'EAUTH', response, responseCode: 535 });
    expect(classifySmtpError(refusal('535 5.7.8 Application-specific password required')).detail).toContain('Application-specific password required');
    expect(classifySmtpError(refusal('535 bad pass hunter2-secret'), { hide: ['hunter2-secret'] }).detail).not.toContain('hunter2-secret');
  });
});
