import { readdirSync, existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { nodeDefinitions, findNodeType, latestNodeTypes } from './registry';

const root = __dirname;

function nodeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return nodeFiles(path);
    return entry.name.endsWith('.node.ts') ? [path] : [];
  });
}

describe('node registry', () => {
  const files = nodeFiles(root);

  it('lists every *.node.ts module under nodes/', async () => {
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const exports = (await import(file)) as Record<string, unknown>;
      const definitions = Object.values(exports).filter((value) => value && typeof value === 'object' && 'type' in value && 'execute' in value);
      expect(definitions.length, relative(root, file)).toBeGreaterThan(0);
      for (const definition of definitions) expect(nodeDefinitions, relative(root, file)).toContain(definition);
    }
  });

  it('has one definition per type and version', () => {
    const keys = nodeDefinitions.map((definition) => `${definition.type}@${definition.version}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const definition of nodeDefinitions) expect(findNodeType(definition.type, definition.version)).toBe(definition);
    expect(latestNodeTypes().length).toBe(new Set(nodeDefinitions.map((definition) => definition.type)).size);
  });

  it.each(nodeDefinitions.map((definition) => [definition.type, definition] as const))('%s is documented in en and fr', (_type, definition) => {
    for (const text of [definition.label, definition.description]) {
      expect(text.en.trim().length).toBeGreaterThan(0);
      expect(text.fr.trim().length).toBeGreaterThan(0);
    }
    expect(definition.type.startsWith(`${definition.category}.`)).toBe(true);
  });

  // Covered by a test beside the node file, or by its family's test file importing it (triggers/triggers.test.ts).
  it.each(files.map((file) => [relative(root, file)]))('%s has tests', (file) => {
    const beside = join(root, file.replace(/\.node\.ts$/, '.node.test.ts'));
    const family = join(root, dirname(file), `${basename(dirname(file))}.test.ts`);
    const importedByFamily = existsSync(family) && readFileSync(family, 'utf8').includes(`./${basename(file, '.ts')}'`);
    expect(existsSync(beside) || importedByFamily).toBe(true);
  });

  it.each(nodeDefinitions.filter((definition) => !definition.trigger).map((definition) => [definition.type, definition] as const))(
    '%s describes every parameter and produces a JSON Schema',
    (_type, definition) => {
      const schema = z.toJSONSchema(definition.params, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
      const undocumented: string[] = [];
      const visit = (node: unknown, path: string) => {
        if (!node || typeof node !== 'object') return;
        const record = node as Record<string, unknown>;
        if (record.properties && typeof record.properties === 'object') {
          for (const [key, value] of Object.entries(record.properties as Record<string, Record<string, unknown>>)) {
            if (typeof value.description !== 'string') undocumented.push(`${path}.${key}`);
            visit(value, `${path}.${key}`);
          }
        }
        for (const key of ['items', 'anyOf', 'oneOf', 'allOf']) {
          const child = record[key];
          if (Array.isArray(child)) child.forEach((entry) => visit(entry, path));
          else visit(child, `${path}[]`);
        }
      };
      visit(schema, 'params');
      expect(undocumented).toEqual([]);
    },
  );
});
