import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildNeeded, saveFingerprint, sourceFingerprint } from './build-fingerprint';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'mailflow-fingerprint-'));
  await mkdir(path.join(root, 'app'), { recursive: true });
  await mkdir(path.join(root, 'server', 'core'), { recursive: true });
  await writeFile(path.join(root, 'app', 'page.tsx'), 'export default function Page() { return null; }\n');
  await writeFile(path.join(root, 'server', 'core', 'thing.ts'), 'export const thing = 1;\n');
  await writeFile(path.join(root, 'tsconfig.json'), '{}\n');
});

afterEach(() => rm(root, { recursive: true, force: true }));

async function markBuilt(): Promise<string> {
  await mkdir(path.join(root, '.next'), { recursive: true });
  await writeFile(path.join(root, '.next', 'BUILD_ID'), 'x');
  const fingerprint = await sourceFingerprint(root);
  await saveFingerprint(root, fingerprint);
  return fingerprint;
}

describe('build fingerprint', () => {
  it('asks for a build when there is none, and not after one with the same sources', async () => {
    expect(await buildNeeded(root, await sourceFingerprint(root))).toBe('no production build yet');
    await markBuilt();
    expect(await buildNeeded(root, await sourceFingerprint(root))).toBeNull();
  });

  it('asks again when a source file is edited, added or a config file changes', async () => {
    await markBuilt();
    const later = new Date(Date.now() + 5000);
    await utimes(path.join(root, 'server', 'core', 'thing.ts'), later, later);
    expect(await buildNeeded(root, await sourceFingerprint(root))).toBe('sources changed since the last build');

    await markBuilt();
    await writeFile(path.join(root, 'app', 'new-page.tsx'), 'export {};\n');
    expect(await buildNeeded(root, await sourceFingerprint(root))).toBe('sources changed since the last build');

    await markBuilt();
    await writeFile(path.join(root, 'tsconfig.json'), '{ "compilerOptions": {} }\n');
    expect(await buildNeeded(root, await sourceFingerprint(root))).toBe('sources changed since the last build');
  });

  it('ignores test files', async () => {
    const fingerprint = await markBuilt();
    await writeFile(path.join(root, 'server', 'core', 'thing.test.ts'), 'test\n');
    await writeFile(path.join(root, 'server', 'core', 'thing.int.test.ts'), 'test\n');
    expect(await sourceFingerprint(root)).toBe(fingerprint);
  });
});
