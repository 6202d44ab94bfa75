/**
 * The runner must stay free of the web stack: it never loads Next.js, React, tRPC or `server-only`.
 * Follows the runner's relative imports from runner/main.ts and checks every package it reaches.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const generatedDir = path.join(root, 'server', 'generated');
const forbidden = /^(next|react|react-dom|server-only|@trpc\/.*|@tanstack\/react-query)(\/|$)/;
const importPattern = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^import\s*['"]([^'"]+)['"]/gm;

function resolveLocal(fromFile: string, specifier: string): string | null {
  const base = specifier.startsWith('@/') ? path.join(root, specifier.slice(2)) : path.resolve(path.dirname(fromFile), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    if (existsSync(candidate) && !candidate.endsWith(path.sep) && /\.(ts|tsx|js|mjs)$/.test(candidate)) return candidate;
  }
  return null;
}

/** Bare package names reached from `entry` through local imports, with the file that imports each. */
function packagesReachedFrom(entry: string): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    // Prisma's generated client imports only @prisma/* (and shows example imports in comments).
    if (file.startsWith(generatedDir)) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(importPattern)) {
      const specifier = match[1] ?? match[2] ?? match[3];
      if (specifier.endsWith('.json')) {
        // A JSON import (package.json for the version) carries data, not imports: check it exists and stop there.
        if (!existsSync(path.resolve(path.dirname(file), specifier))) throw new Error(`cannot resolve ${specifier} from ${path.relative(root, file)}`);
      } else if (specifier.startsWith('.') || specifier.startsWith('@/')) {
        const local = resolveLocal(file, specifier);
        if (!local) throw new Error(`cannot resolve ${specifier} from ${path.relative(root, file)}`);
        queue.push(local);
      } else if (!specifier.startsWith('node:')) {
        packages.set(specifier, path.relative(root, file));
      }
    }
  }
  return packages;
}

describe('runner boundary', () => {
  it('reaches graphile-worker and the database code (the walk works)', () => {
    const packages = packagesReachedFrom(path.join(root, 'runner', 'main.ts'));
    expect(packages.has('graphile-worker')).toBe(true);
    expect(packages.has('@prisma/adapter-pg')).toBe(true);
    expect(packages.has('zod')).toBe(true);
  });

  it('never imports Next.js, React or tRPC', () => {
    const packages = packagesReachedFrom(path.join(root, 'runner', 'main.ts'));
    const offending = [...packages].filter(([name]) => forbidden.test(name)).map(([name, file]) => `${name} (from ${file})`);
    expect(offending).toEqual([]);
  });
});
