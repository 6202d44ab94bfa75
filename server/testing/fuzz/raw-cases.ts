/**
 * The raw-socket cases: each writes bytes that a fetch Request cannot express and says what it
 * accepts back. Every answer that arrives is checked like the in-process ones (no 5xx, the envelope).
 */
import { checkAnswer, type Verdict } from './check';
import { chunkedBody, head, rawExchange, type RawExchange, type RawResponse } from './raw-http';

export interface RawCaseContext {
  port: number;
  adminCookie: string;
  tableId: string;
}

export interface RawCase {
  label: string;
  /** Repeated: a failure that shows one time in two must show here. */
  times?: number;
  run(context: RawCaseContext): Promise<RawExchange>;
  /** Closing without an answer is acceptable only where the client itself gave up. */
  answerOptional?: boolean;
  /**
   * Only the first answer is the application's: the bytes after it are not HTTP, and what Node's own
   * parser answers to them (a bare 400 before any handler runs) is not checked.
   */
  firstAnswerOnly?: boolean;
  /**
   * The request is not valid HTTP/1.1 once its bytes are read (a body shorter or longer than its
   * Content-Length): Node's parser refuses it before any handler runs, with a bare `400` and
   * `Connection: close`. That answer is accepted here (it never reaches the application); a 5xx or
   * anything else is not.
   */
  protocolError?: boolean;
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const host = (context: RawCaseContext) => `127.0.0.1:${context.port}`;

export const rawCases: RawCase[] = [
  {
    label: 'chunked body of 6 MB to a public route (sign-in)',
    times: 3,
    run: (context) =>
      rawExchange(context.port, [head('POST', '/api/v1/auth/login', { host: host(context), 'content-type': 'application/json', 'transfer-encoding': 'chunked' }), ...chunkedBody(6 * 1024 * 1024, 64 * 1024)], { timeoutMs: 10_000 }),
  },
  {
    label: 'chunked body of 6 MB to an administrator route (table creation)',
    times: 3,
    run: (context) =>
      rawExchange(
        context.port,
        [head('POST', '/api/v1/tables', { host: host(context), cookie: context.adminCookie, 'content-type': 'application/json', 'transfer-encoding': 'chunked' }), ...chunkedBody(6 * 1024 * 1024, 64 * 1024, '{"name":"')],
        { timeoutMs: 10_000 },
      ),
  },
  {
    label: 'small chunked body with a chunk extension and a trailer',
    run: (context) => {
      const payload = '{"email":"nobody@example.test","password":"wrong password"}';
      return rawExchange(context.port, [
        head('POST', '/api/v1/auth/login', { host: host(context), 'content-type': 'application/json', 'transfer-encoding': 'chunked', trailer: 'x-fuzz' }),
        Buffer.from(`${payload.length.toString(16)};ext=1\r\n${payload}\r\n0\r\nx-fuzz: 1\r\n\r\n`),
      ]);
    },
  },
  {
    label: 'declared Content-Length of 6 MB, body never sent',
    run: (context) => rawExchange(context.port, [head('POST', '/api/v1/auth/login', { host: host(context), 'content-type': 'application/json', 'content-length': 6 * 1024 * 1024 })], { timeoutMs: 3000 }),
  },
  {
    label: 'invalid UTF-8 bytes in a JSON body',
    run: (context) => {
      const body = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]), Buffer.from('"}')]);
      return rawExchange(context.port, [head('POST', '/api/v1/tables', { host: host(context), cookie: context.adminCookie, 'content-type': 'application/json', 'content-length': body.length }), body]);
    },
  },
  {
    label: 'latin-1 body declared as latin-1',
    run: (context) => {
      const body = Buffer.from('{"name":"caf\u00e9 \u00ff"}', 'latin1');
      return rawExchange(context.port, [head('POST', '/api/v1/tables', { host: host(context), cookie: context.adminCookie, 'content-type': 'application/json; charset=latin1', 'content-length': body.length }), body]);
    },
  },
  {
    label: 'Content-Length smaller than the body (the rest is not HTTP)',
    firstAnswerOnly: true,
    protocolError: true,
    run: (context) => {
      const body = json({ email: 'nobody@example.test', password: 'wrong password' });
      return rawExchange(context.port, [head('POST', '/api/v1/auth/login', { host: host(context), 'content-type': 'application/json', 'content-length': 10 }), body]);
    },
  },
  {
    label: 'Content-Length larger than the body, then the client half-closes',
    answerOptional: true,
    protocolError: true,
    run: (context) => {
      const body = json({ email: 'nobody@example.test', password: 'wrong password' });
      return rawExchange(context.port, [head('POST', '/api/v1/auth/login', { host: host(context), 'content-type': 'application/json', 'content-length': body.length + 100 }), body], { end: 'half-close', timeoutMs: 3000 });
    },
  },
  {
    label: 'body abandoned halfway (connection destroyed)',
    answerOptional: true,
    run: (context) =>
      rawExchange(context.port, [head('POST', `/api/v1/tables/${context.tableId}/rows`, { host: host(context), cookie: context.adminCookie, 'content-type': 'application/json', 'content-length': 5000 }), Buffer.from('{"cells":{"name":"')], { end: 'destroy' }),
  },
  {
    label: 'percent-encoded bytes that are not UTF-8 in the path and the query',
    run: (context) => rawExchange(context.port, [head('GET', `/api/v1/tables/%FF%FE/rows?sort=%C3%28&q=%ED%A0%80`, { host: host(context), cookie: context.adminCookie })]),
  },
  {
    // Only a raw target keeps its dot segments: a fetch Request resolves them before any handler runs.
    label: 'dot segments in the path of a destructive route (a row delete that would resolve to the table)',
    run: (context) =>
      rawExchange(context.port, [head('DELETE', `/api/v1/tables/${context.tableId}/rows/%2e%2e`, { host: host(context), cookie: context.adminCookie })]),
  },
  {
    label: 'prototype names in the query string of a public route',
    run: (context) => rawExchange(context.port, [head('GET', '/api/v1/branding?constructor=x&__proto__[polluted]=1&toString=1', { host: host(context) })]),
  },
  {
    label: 'a Host header that is not a host',
    run: (context) => rawExchange(context.port, [head('GET', '/api/v1/branding', { host: 'exa mple..invalid:99999' })]),
  },
  {
    label: 'no Host header (HTTP/1.0)',
    run: (context) => rawExchange(context.port, [Buffer.from('GET /api/v1/branding HTTP/1.0\r\n\r\n')]),
  },
  {
    label: 'a body on a GET',
    run: (context) => {
      const body = Buffer.from('{"x":1}');
      return rawExchange(context.port, [head('GET', '/api/v1/branding', { host: host(context), 'content-type': 'application/json', 'content-length': body.length }), body]);
    },
  },
  {
    label: 'Expect: 100-continue',
    run: (context) => {
      const body = json({ email: 'nobody@example.test', password: 'wrong password' });
      return rawExchange(context.port, [head('POST', '/api/v1/auth/login', { host: host(context), 'content-type': 'application/json', 'content-length': body.length, expect: '100-continue' }), body]);
    },
  },
  {
    label: 'two requests pipelined on one connection',
    run: (context) =>
      rawExchange(context.port, [Buffer.concat([head('GET', '/api/v1/branding', { host: host(context) }), head('GET', '/api/v1/tables', { host: host(context), cookie: context.adminCookie })])], { expectResponses: 2 }),
  },
];

/** The verdict on an exchange: every answer checked; no answer at all is a problem unless allowed. */
export function judgeExchange(rawCase: RawCase, exchange: RawExchange): Verdict[] {
  if (exchange.responses.length === 0) {
    if (rawCase.answerOptional) return [];
    return [{ code: null, problem: { kind: 'no_answer', detail: `connection ${exchange.ending} after ${exchange.written} bytes written, no response` } }];
  }
  const responses = rawCase.firstAnswerOnly ? exchange.responses.slice(0, 1) : exchange.responses;
  return responses.map((response) => {
    if (rawCase.protocolError && isParserRefusal(response)) return { code: null, problem: null };
    return checkAnswer({ status: response.status, contentType: response.headers.get('content-type') ?? null, bytes: response.body });
  });
}

/** Node's own answer to bytes that are not HTTP: `400 Bad Request`, no body, connection closed. */
function isParserRefusal(response: RawResponse): boolean {
  return response.status === 400 && response.body.length === 0 && response.headers.get('connection')?.toLowerCase() === 'close';
}
