/**
 * Secrets at rest: AES-256-GCM under the instance key (`ENCRYPTION_KEY`), with rotation.
 *
 * A sealed value is the text `v1:<keyId>:<base64 of iv(12) | tag(16) | ciphertext>`, so any text column
 * can hold one and the key that sealed it is known without trying every key. `keyId` is the first 8 hex
 * digits of the SHA-256 of the derived key: it names a key without revealing it.
 *
 * Rotation: put the new key in `ENCRYPTION_KEY` and the old ones in `ENCRYPTION_KEYS_PREVIOUS`
 * (comma-separated). Values sealed under an old key still open; `needsReseal` tells a rewrite job which
 * rows to seal again under the current key, after which the old key can be dropped.
 *
 * The additional data (`purpose`) binds a sealed value to its use (`credential:<id>`, `oauth-app:<provider>`):
 * a value copied into another row does not open there.
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { config } from '../config';
import { appError } from '../errors/app-error';

const version = 'v1';
const ivBytes = 12;
const tagBytes = 16;

interface InstanceKey {
  id: string;
  key: Buffer;
}

/** Any text of at least 32 characters works as a key; HKDF turns it into 32 bytes. */
export function deriveKey(secret: string): InstanceKey {
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), 'mailflow secret-box v1', 32));
  const id = createHash('sha256').update(key).digest('hex').slice(0, 8);
  return { id, key };
}

interface Keyring {
  current: InstanceKey | null;
  byId: Map<string, InstanceKey>;
}

let cachedRing: { source: string; ring: Keyring } | null = null;

function keyring(): Keyring {
  const { ENCRYPTION_KEY, ENCRYPTION_KEYS_PREVIOUS } = config();
  const source = `${ENCRYPTION_KEY ?? ''}\n${ENCRYPTION_KEYS_PREVIOUS ?? ''}`;
  if (cachedRing?.source === source) return cachedRing.ring;
  const current = ENCRYPTION_KEY ? deriveKey(ENCRYPTION_KEY) : null;
  const byId = new Map<string, InstanceKey>();
  for (const previous of (ENCRYPTION_KEYS_PREVIOUS ?? '').split(',').map((text) => text.trim()).filter(Boolean)) {
    const key = deriveKey(previous);
    byId.set(key.id, key);
  }
  if (current) byId.set(current.id, current);
  const ring = { current, byId };
  cachedRing = { source, ring };
  return ring;
}

/** Whether secrets can be stored at all (routes answer their `*.encryption_disabled` code otherwise). */
export function encryptionEnabled(): boolean {
  return keyring().current !== null;
}

/** The error code a route answers when the instance has no key, checked before any other work. */
export function requireEncryption(code: 'credentials.encryption_disabled' | 'credential.encryption_disabled' | 'oauth.encryption_disabled' | 'llm.encryption_disabled'): void {
  if (!encryptionEnabled()) throw appError(code);
}

export function seal(plaintext: string, purpose: string): string {
  const current = keyring().current;
  if (!current) throw new Error('secret-box: no ENCRYPTION_KEY configured (check encryptionEnabled() first)');
  const iv = randomBytes(ivBytes);
  const cipher = createCipheriv('aes-256-gcm', current.key, iv);
  cipher.setAAD(Buffer.from(purpose, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${version}:${current.id}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')}`;
}

/** Opens a sealed value. Throws (without any of the secret in the message) when it cannot. */
export function open(sealed: string, purpose: string): string {
  const [tag, keyId, body] = sealed.split(':');
  if (tag !== version || !keyId || body === undefined) throw new Error('secret-box: not a sealed value');
  const key = keyring().byId.get(keyId);
  if (!key) throw new Error(`secret-box: sealed under unknown key ${keyId} (add it to ENCRYPTION_KEYS_PREVIOUS)`);
  const bytes = Buffer.from(body, 'base64');
  if (bytes.length < ivBytes + tagBytes) throw new Error('secret-box: truncated value');
  const decipher = createDecipheriv('aes-256-gcm', key.key, bytes.subarray(0, ivBytes));
  decipher.setAAD(Buffer.from(purpose, 'utf8'));
  decipher.setAuthTag(bytes.subarray(ivBytes, ivBytes + tagBytes));
  try {
    return Buffer.concat([decipher.update(bytes.subarray(ivBytes + tagBytes)), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('secret-box: value does not open (wrong key or purpose, or tampered)');
  }
}

export function sealJson(value: unknown, purpose: string): string {
  return seal(JSON.stringify(value), purpose);
}

export function openJson(sealed: string, purpose: string): unknown {
  return JSON.parse(open(sealed, purpose)) as unknown;
}

/**
 * A key for another use (keyed hashes) derived from the current instance key, never the key itself;
 * null without an instance key. Changes when the instance key rotates.
 */
export function instanceSubkey(label: string): Buffer | null {
  const current = keyring().current;
  return current ? Buffer.from(hkdfSync('sha256', current.key, Buffer.alloc(0), `mailflow subkey: ${label}`, 32)) : null;
}

/** The prefix every value sealed under the current key starts with (`v1:<keyId>:`), or null without a key. */
export function currentSealPrefix(): string | null {
  const current = keyring().current;
  return current ? `${version}:${current.id}:` : null;
}

/** True when the value was sealed under a key other than the current one (rotation). */
export function needsReseal(sealed: string): boolean {
  const current = keyring().current;
  return current !== null && sealed.split(':')[1] !== current.id;
}

/** The last characters of a secret shown to its owner (at most 4, none for very short secrets). */
export function secretHint(secret: string): string {
  const characters = [...secret];
  if (characters.length < 8) return '';
  return characters.slice(-4).join('');
}
