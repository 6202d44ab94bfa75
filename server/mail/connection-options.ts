/**
 * One way to open a connection to a member's mail server, shared by the probes and the sync engine:
 * the host goes through the network guard first, the client connects to the checked address, TLS
 * verifies the certificate against the host name the member typed (sent as SNI servername), unless
 * they chose `allowInvalidCertificate`; every phase has a timeout.
 *
 * Plaintext ports (`secure: false`) upgrade with STARTTLS whenever the server offers it (imapflow and
 * nodemailer both do so by default); `allowInvalidCertificate` applies to that upgrade too.
 */
import type { ImapFlowOptions } from 'imapflow';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { resolveAllowedAddress, type GuardOptions, type ResolvedAddress } from '../core/net/network-guard';

export interface MailServerEndpoint {
  /** As the member typed it: a name or an IP literal. */
  host: string;
  port: number;
  /** TLS from the first byte (993, 465); false: plaintext, upgraded by STARTTLS when offered. */
  secure: boolean;
  allowInvalidCertificate: boolean;
}

export interface MailCredentials {
  username: string;
  password: string;
}

export interface MailTimeouts {
  /** TCP + TLS connect. Default 15 s. */
  connectMs?: number;
  /** Waiting for the server's greeting after connecting. Default 15 s. */
  greetingMs?: number;
  /** Inactivity on an open connection. Default 20 s (a long-lived sync connection sets its own). */
  socketMs?: number;
}

export const defaultMailTimeouts = { connectMs: 15_000, greetingMs: 15_000, socketMs: 20_000 } as const;

/** The checked address to connect to for `endpoint.host` (NetworkGuardError otherwise). */
export function resolveMailServer(host: string, guard: GuardOptions): Promise<ResolvedAddress> {
  return resolveAllowedAddress(host, guard);
}

/** SNI and certificate name: the host as typed; none for an IP literal (its certificate names the IP). */
function servernameFor(endpoint: MailServerEndpoint, resolved: ResolvedAddress): string | undefined {
  return resolved.literal ? undefined : endpoint.host.trim().replace(/\.$/, '').toLowerCase();
}

/**
 * imapflow options for a connection to `resolved` (from resolveMailServer). Auto-IDLE is off: the
 * caller decides when to IDLE (the sync engine calls `idle()` itself). Pass `overrides` for anything
 * else (`qresync`, `maxIdleTime`, a logger that never logs credentials...).
 */
export function imapConnectionOptions(
  endpoint: MailServerEndpoint,
  credentials: MailCredentials,
  resolved: ResolvedAddress,
  timeouts: MailTimeouts = {},
  overrides: Partial<ImapFlowOptions> = {},
): ImapFlowOptions {
  const servername = servernameFor(endpoint, resolved);
  return {
    host: resolved.address,
    port: endpoint.port,
    secure: endpoint.secure,
    servername,
    auth: { user: credentials.username, pass: credentials.password },
    tls: { rejectUnauthorized: !endpoint.allowInvalidCertificate, servername, minVersion: 'TLSv1.2' },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: timeouts.connectMs ?? defaultMailTimeouts.connectMs,
    greetingTimeout: timeouts.greetingMs ?? defaultMailTimeouts.greetingMs,
    socketTimeout: timeouts.socketMs ?? defaultMailTimeouts.socketMs,
    ...overrides,
  };
}

/** nodemailer SMTP transport options for a connection to `resolved` (from resolveMailServer). */
export function smtpTransportOptions(
  endpoint: MailServerEndpoint,
  credentials: MailCredentials,
  resolved: ResolvedAddress,
  timeouts: MailTimeouts = {},
  overrides: Partial<SMTPTransport.Options> = {},
): SMTPTransport.Options {
  const servername = servernameFor(endpoint, resolved);
  return {
    host: resolved.address,
    port: endpoint.port,
    secure: endpoint.secure,
    servername,
    auth: { user: credentials.username, pass: credentials.password },
    tls: { rejectUnauthorized: !endpoint.allowInvalidCertificate, servername, minVersion: 'TLSv1.2' },
    connectionTimeout: timeouts.connectMs ?? defaultMailTimeouts.connectMs,
    greetingTimeout: timeouts.greetingMs ?? defaultMailTimeouts.greetingMs,
    socketTimeout: timeouts.socketMs ?? defaultMailTimeouts.socketMs,
    dnsTimeout: 10_000,
    logger: false,
    debug: false,
    ...overrides,
  };
}
