/**
 * A throw-away self-signed certificate for the test mail servers: CN localhost, SAN localhost and
 * 127.0.0.1, made with the openssl command line (always present where Dovecot is). EC P-256 keeps
 * generation fast (a few milliseconds).
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface SelfSignedCert {
  certPath: string;
  keyPath: string;
  certPem: string;
  keyPem: string;
}

/** Writes `cert.pem` and `key.pem` (mode 0600) into `directory`. */
export async function createSelfSignedCert(directory: string): Promise<SelfSignedCert> {
  const certPath = path.join(directory, 'cert.pem');
  const keyPath = path.join(directory, 'key.pem');
  await run(
    'openssl',
    [
      'req', '-x509', '-nodes', '-days', '2',
      '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1',
      '-keyout', keyPath, '-out', certPath,
      '-subj', '/CN=localhost',
      '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
    ],
    { timeout: 30_000 },
  );
  const [certPem, keyPem] = await Promise.all([readFile(certPath, 'utf8'), readFile(keyPath, 'utf8')]);
  return { certPath, keyPath, certPem, keyPem };
}
