import { mkdir, mkdtemp, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hydrateSymlinks, locatePlatformPackage } from './embedded-postgres-binaries';

let packageDir: string;

beforeEach(async () => {
  packageDir = await mkdtemp(path.join(tmpdir(), 'mailflow-pgpkg-'));
  await mkdir(path.join(packageDir, 'native', 'lib'), { recursive: true });
  await writeFile(path.join(packageDir, 'native', 'lib', 'libpq.so.5.18'), 'real library');
  await writeFile(
    path.join(packageDir, 'native', 'pg-symlinks.json'),
    JSON.stringify([
      { source: 'native/lib/libpq.so.5.18', target: 'native/lib/libpq.so.5' },
      { source: 'native/lib/libpq.so.5.18', target: 'native/lib/libpq.so' },
    ]),
  );
});

afterEach(() => rm(packageDir, { recursive: true, force: true }));

describe('hydrateSymlinks', () => {
  it('creates the listed links, relative to their directory, once', async () => {
    expect(await hydrateSymlinks(packageDir)).toBe(2);
    expect(await readlink(path.join(packageDir, 'native', 'lib', 'libpq.so.5'))).toBe('libpq.so.5.18');
    expect(await readFile(path.join(packageDir, 'native', 'lib', 'libpq.so'), 'utf8')).toBe('real library');
    expect(await hydrateSymlinks(packageDir)).toBe(0);
  });

  it('leaves an existing file in place', async () => {
    await writeFile(path.join(packageDir, 'native', 'lib', 'libpq.so'), 'something else');
    expect(await hydrateSymlinks(packageDir)).toBe(1);
    expect(await readFile(path.join(packageDir, 'native', 'lib', 'libpq.so'), 'utf8')).toBe('something else');
  });

  it('does nothing for a package without a link list', async () => {
    await rm(path.join(packageDir, 'native', 'pg-symlinks.json'));
    expect(await hydrateSymlinks(packageDir)).toBe(0);
  });
});

describe('locatePlatformPackage', () => {
  it('finds the installed binaries package of this platform', () => {
    expect(locatePlatformPackage()).toMatch(new RegExp(`@embedded-postgres[\\\\/]${process.platform}-${process.arch}$`));
  });
});
