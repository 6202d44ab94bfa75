import { describe, expect, it } from 'vitest';
import { NetworkGuardError } from '../../core/net/network-guard';
import { httpFailureError, networkFailureError, ProviderError } from '../providers/provider-errors';
import { classifyProviderSendError, classifySmtpSendError } from './errors';

const smtp = (fields: Record<string, unknown>) => Object.assign(new Error('smtp failure'), fields);

describe('classifySmtpSendError', () => {
  it('retries what cannot have delivered anything: refused connection, DNS, TLS, login', () => {
    expect(classifySmtpSendError(smtp({ code: 'ESOCKET', originalCode: 'ECONNREFUSED', command: 'CONN' }), { handedOver: false })).toMatchObject({ outcome: 'retry', kind: 'unreachable' });
    expect(classifySmtpSendError(smtp({ code: 'EDNS', command: 'CONN' }), { handedOver: false })).toMatchObject({ outcome: 'retry', kind: 'unreachable' });
    expect(classifySmtpSendError(smtp({ code: 'ETLS', command: 'STARTTLS' }), { handedOver: false })).toMatchObject({ outcome: 'retry', kind: 'tls' });
    expect(classifySmtpSendError(smtp({ code: 'EAUTH', responseCode: 535, response: '535 Invalid login', command: 'AUTH PLAIN' }), { handedOver: false })).toMatchObject({ outcome: 'retry', kind: 'auth' });
    expect(classifySmtpSendError(new NetworkGuardError('blocked_address', 'blocked'), { handedOver: false })).toMatchObject({ outcome: 'retry' });
  });

  it('fails a permanent refusal and defers a temporary one, whatever the phase', () => {
    expect(classifySmtpSendError(smtp({ code: 'EENVELOPE', responseCode: 550, response: '550 5.1.1 No such user', command: 'RCPT TO' }), { handedOver: false })).toMatchObject({
      outcome: 'failed',
      kind: 'rejected',
      message: expect.stringContaining('No such user'),
    });
    expect(classifySmtpSendError(smtp({ code: 'EMESSAGE', responseCode: 554, response: '554 spam', command: 'DATA' }), { handedOver: true })).toMatchObject({ outcome: 'failed', kind: 'rejected' });
    expect(classifySmtpSendError(smtp({ code: 'EENVELOPE', responseCode: 451, response: '451 try later', command: 'RCPT TO' }), { handedOver: false })).toMatchObject({ outcome: 'retry', kind: 'deferred' });
    expect(classifySmtpSendError(smtp({ code: 'EMESSAGE', responseCode: 552, response: '552 too big', command: 'DATA' }), { handedOver: true })).toMatchObject({ outcome: 'failed', kind: 'too_large' });
  });

  it('is unknown when the connection ends after the message was handed over', () => {
    expect(classifySmtpSendError(smtp({ code: 'ETIMEDOUT', command: 'CONN' }), { handedOver: true })).toMatchObject({ outcome: 'unknown', kind: 'uncertain' });
    expect(classifySmtpSendError(smtp({ code: 'ECONNECTION', command: 'CONN' }), { handedOver: true })).toMatchObject({ outcome: 'unknown', kind: 'uncertain' });
  });

  it('never repeats a hidden secret or a resolved address', () => {
    const failure = classifySmtpSendError(smtp({ code: 'EENVELOPE', responseCode: 550, response: '550 rejected hunter2 from 10.1.2.3', command: 'RCPT TO' }), { handedOver: false, hide: ['hunter2'] });
    expect(failure.message).not.toContain('hunter2');
    expect(failure.message).not.toContain('10.1.2.3');
  });
});

describe('classifyProviderSendError', () => {
  it('postpones a rate limit for the time asked', () => {
    expect(classifyProviderSendError(httpFailureError({ status: 429, retryAfter: '7', reasons: [] }))).toMatchObject({ outcome: 'rate_limited', retryAfterMs: 7000 });
  });

  it('retries a server error or a refused grant, fails a bad request', () => {
    expect(classifyProviderSendError(httpFailureError({ status: 500, retryAfter: null, reasons: [] }))).toMatchObject({ outcome: 'retry', kind: 'unreachable' });
    expect(classifyProviderSendError(httpFailureError({ status: 401, retryAfter: null, reasons: [] }))).toMatchObject({ outcome: 'retry', kind: 'auth' });
    expect(classifyProviderSendError(httpFailureError({ status: 400, retryAfter: null, reasons: ['invalidArgument'] }))).toMatchObject({ outcome: 'failed', kind: 'rejected' });
  });

  it('retries a connection that never opened, and is unknown for one cut after the request left', () => {
    expect(classifyProviderSendError(networkFailureError(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })))).toMatchObject({ outcome: 'retry' });
    expect(classifyProviderSendError(networkFailureError(Object.assign(new Error('timeout'), { name: 'TimeoutError' })))).toMatchObject({ outcome: 'unknown', kind: 'uncertain' });
    expect(classifyProviderSendError(networkFailureError(Object.assign(new TypeError('fetch failed'), { cause: { code: 'UND_ERR_SOCKET' } })))).toMatchObject({ outcome: 'unknown' });
    expect(classifyProviderSendError(new ProviderError({ kind: 'unreachable', code: 'provider.host_not_found' }))).toMatchObject({ outcome: 'retry' });
  });
});
