/**
 * One owner of step rows: no file of the service but step-rows.ts writes `execution_steps` (Prisma's
 * `executionStep` create/update/upsert/delete, or raw SQL on the table), so who may set a step's status
 * is answered by one file. Tests and test support (`testing/` folders) may seed steps.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const owner = 'server/engine/run/step-rows.ts';

const prismaWrite = /\bexecutionStep\s*\.\s*(create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert|delete|deleteMany)\b/g;
const sqlWrite = /\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?execution_steps"?/gi;

function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(root, folder), { withFileTypes: true })) {
    const relative = `${folder}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name === 'generated' || entry.name === 'testing' || entry.name === 'node_modules') continue;
      found.push(...sourceFiles(relative));
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
      found.push(relative);
    }
  }
  return found;
}

function stepWritesIn(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  return [...text.matchAll(prismaWrite), ...text.matchAll(sqlWrite)].map((match) => match[0]);
}

describe('step rows have one owner', () => {
  it('finds the writes it looks for (in the owner: the check is not vacuous)', () => {
    const writes = stepWritesIn(owner);
    expect(writes.some((write) => write.includes('executionStep'))).toBe(true);
    expect(writes.some((write) => /^UPDATE/i.test(write))).toBe(true);
  });

  it('no other file of server/ or runner/ writes a step row', () => {
    const elsewhere = [...sourceFiles('server'), ...sourceFiles('runner')]
      .filter((file) => file !== owner)
      .flatMap((file) => stepWritesIn(file).map((write) => `${file}: ${write}`));
    expect(elsewhere).toEqual([]);
  });
});
