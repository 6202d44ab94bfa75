/**
 * Framework boundaries inside server/: only the web server imports Next.js; services and core code
 * never import tRPC (TRPCError and procedures stay in server/trpc), nor React.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const serverDir = path.dirname(fileURLToPath(import.meta.url));
const importPattern = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === 'generated' || name === 'node_modules') return [];
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.ts$/.test(name) ? [full] : [];
  });
}

function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(importPattern)].map((match) => match[1] ?? match[2]);
}

const files = sourceFiles(serverDir).map((file) => ({ file: path.relative(serverDir, file), imports: importsOf(file) }));

describe('server boundaries', () => {
  it('lets only http/web-server.ts import Next.js', () => {
    const offending = files.filter(({ file, imports }) => file !== path.join('http', 'web-server.ts') && imports.some((i) => /^next(\/|$)/.test(i)));
    expect(offending.map(({ file }) => file)).toEqual([]);
  });

  it('keeps tRPC out of core and domain services', () => {
    const offending = files.filter(
      ({ file, imports }) =>
        (file.startsWith('core') || /^domains\/[^/]+\/(service|governance|invitations|sessions|present|schemas)\.ts$/.test(file)) &&
        imports.some((i) => /^@trpc\//.test(i) || /\/trpc\//.test(i)),
    );
    expect(offending.map(({ file }) => file)).toEqual([]);
  });

  it('never imports React on the server', () => {
    expect(files.filter(({ imports }) => imports.some((i) => /^react(-dom)?(\/|$)/.test(i))).map(({ file }) => file)).toEqual([]);
  });

  it('finds the files it checks (the walk works)', () => {
    expect(files.some(({ file }) => file === path.join('http', 'web-server.ts'))).toBe(true);
    expect(files.find(({ file }) => file === path.join('http', 'web-server.ts'))!.imports).toContain('next');
  });
});
