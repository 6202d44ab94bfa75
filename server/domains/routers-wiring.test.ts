/**
 * A router reads as wiring (procedure → access, schemas, service): its en/fr prose lives in the
 * docs file beside it (`router.ts` → `docs.ts`, `admin-router.ts` → `admin-docs.ts`), one entry per
 * procedure. This test keeps the prose from creeping back: no line of a router over 200 characters,
 * no string literal in a router over 100 characters (the longest wiring strings, paths and error
 * codes, are far shorter; a sentence is not).
 */
import { globSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const routers = globSync('server/domains/**/*router.ts', { cwd: root }).sort();
const maxLine = 200;
const maxLiteral = 100;
/** Quoted strings and template chunks: enough to find a sentence, not a parser. */
const literal = /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g;

describe('routers read as wiring', () => {
  it('finds the routers', () => {
    expect(routers.length).toBeGreaterThan(30);
  });

  it.each(routers)('%s has no line over 200 characters and no long string', (file) => {
    const lines = readFileSync(`${root}/${file}`, 'utf8').split('\n');
    const long = lines.map((line, index) => ({ line: index + 1, length: line.length })).filter(({ length }) => length > maxLine);
    expect(long, `move the prose to the docs file beside ${file}`).toEqual([]);
    const strings = lines.flatMap((line, index) =>
      (line.match(literal) ?? []).filter((text) => text.length > maxLiteral).map((text) => `${index + 1}: ${text.slice(0, 60)}…`),
    );
    expect(strings, `move the prose to the docs file beside ${file}`).toEqual([]);
  });
});
