import { afterEach, describe, expect, it } from 'vitest';
import { resetConfigForTests } from '../config';
import { db } from '../db';
import { createMember } from '../../testing/factories';
import { useTestDatabase } from '../../testing/test-database';
import { resealSecrets } from './reseal';
import { deriveKey, open, seal } from './secret-box';

await useTestDatabase();

const saved = { key: process.env.ENCRYPTION_KEY, previous: process.env.ENCRYPTION_KEYS_PREVIOUS };
function useKeys(current: string, previous?: string): void {
  process.env.ENCRYPTION_KEY = current;
  if (previous === undefined) delete process.env.ENCRYPTION_KEYS_PREVIOUS;
  else process.env.ENCRYPTION_KEYS_PREVIOUS = previous;
  resetConfigForTests();
}
afterEach(() => {
  process.env.ENCRYPTION_KEY = saved.key;
  if (saved.previous === undefined) delete process.env.ENCRYPTION_KEYS_PREVIOUS;
  else process.env.ENCRYPTION_KEYS_PREVIOUS = saved.previous;
  resetConfigForTests();
});

describe('key rotation: resealSecrets', () => {
  it('moves every value sealed under the previous key to the current key, keeping what it opens to', async () => {
    const oldKey = 'old-instance-key-'.padEnd(40, 'x');
    const newKey = 'new-instance-key-'.padEnd(40, 'y');
    useKeys(oldKey);
    const member = await createMember();
    const ids = ['00000000-0000-4000-8000-000000000101', '00000000-0000-4000-8000-000000000102'];
    for (const id of ids) {
      await db().credential.create({ data: { id, memberId: member.id, type: 'http_generic', name: id, dataEnc: seal(`secret-${id}`, `credential:${id}`) } });
    }
    await db().oAuthApp.create({ data: { provider: 'oauth_provider_a', clientId: 'c', clientSecretEnc: seal('app-secret', 'oauth-app:oauth_provider_a'), clientSecretHint: 'cret' } });

    useKeys(newKey, oldKey);
    expect(await resealSecrets()).toEqual({ resealed: 3, unreadable: 0 });
    expect(await resealSecrets()).toEqual({ resealed: 0, unreadable: 0 });

    // The old key can now go: everything opens under the new key alone.
    useKeys(newKey);
    for (const id of ids) {
      const row = await db().credential.findUniqueOrThrow({ where: { id } });
      expect(row.dataEnc.split(':')[1]).toBe(deriveKey(newKey).id);
      expect(open(row.dataEnc, `credential:${id}`)).toBe(`secret-${id}`);
    }
    const app = await db().oAuthApp.findUniqueOrThrow({ where: { provider: 'oauth_provider_a' } });
    expect(open(app.clientSecretEnc, 'oauth-app:oauth_provider_a')).toBe('app-secret');
  });
});
