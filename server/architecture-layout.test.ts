/**
 * ARCHITECTURE.md's Layout is the map a newcomer reads first: a folder missing from it is a place nobody was told
 * about. This reads the Layout block and checks that every folder under server/, server/domains/ and runner/ has
 * its line (a top-level `server/<folder>/` line, or an indented `<folder>/` line under `server/domains/` or
 * `runner/`), and that the map names no folder that is gone.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The Layout's code block as `{ top-level entry: [indented entries under it] }`. */
function layoutEntries(): Map<string, string[]> {
  const markdown = readFileSync(path.join(root, 'ARCHITECTURE.md'), 'utf8');
  const section = markdown.split(/^## Layout$/m)[1]?.split(/^## /m)[0] ?? '';
  const block = section.split(/^```$/m)[1] ?? '';
  const entries = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const line of block.split('\n')) {
    const top = /^(\S+\/)\s/.exec(`${line} `);
    if (top) {
      current = [];
      entries.set(top[1], current);
      continue;
    }
    const child = /^ {2}([a-z][\w-]*\/)\s/.exec(`${line} `);
    if (child && current) current.push(child[1]);
  }
  return entries;
}

const foldersOf = (relative: string) =>
  readdirSync(path.join(root, relative), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `${entry.name}/`)
    .sort();

describe('ARCHITECTURE.md Layout names every folder', () => {
  const entries = layoutEntries();

  it('has a line for every folder under server/', () => {
    const named = [...entries.keys()].filter((entry) => /^server\/[^/]+\/$/.test(entry)).map((entry) => entry.slice('server/'.length));
    expect(foldersOf('server').filter((folder) => !named.includes(folder))).toEqual([]);
  });

  it.each([['server/domains/'], ['runner/']])('has a line for every folder under %s, and none that is gone', (parent) => {
    const named = entries.get(parent) ?? [];
    const folders = foldersOf(parent);
    expect(folders.filter((folder) => !named.includes(folder)), 'missing from the Layout').toEqual([]);
    expect(named.filter((folder) => !folders.includes(folder)), 'named in the Layout but gone').toEqual([]);
  });

  it('reads the block it checks (a broken parse would pass the checks above vacuously)', () => {
    expect(entries.get('server/domains/')?.length).toBeGreaterThan(20);
    expect(entries.get('runner/')?.length).toBeGreaterThan(5);
  });
});
