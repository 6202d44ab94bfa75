import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cronItems } from '../crontab';
import type { TaskDefinition } from './define-task';
import { taskDefinitions, taskList } from './index';

const here = path.dirname(fileURLToPath(import.meta.url));

function isTaskDefinition(value: unknown): value is TaskDefinition {
  return typeof value === 'object' && value !== null && 'name' in value && typeof (value as TaskDefinition).task === 'function';
}

describe('runner task list', () => {
  it('registers every task exported by a *.task.ts file', async () => {
    const files = readdirSync(here).filter((file) => file.endsWith('.task.ts'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const exported = Object.values(await import(path.join(here, file))).filter(isTaskDefinition);
      expect(exported, file).not.toHaveLength(0);
      for (const definition of exported) expect(taskDefinitions, `${file} is not in runner/tasks/index.ts`).toContain(definition);
    }
  });

  it('has unique names', () => {
    const names = taskDefinitions.map((definition) => definition.name);
    expect(new Set(names).size).toBe(names.length);
    expect(Object.keys(taskList).sort()).toEqual([...names].sort());
  });

  it('schedules only registered tasks', () => {
    for (const item of cronItems) expect(Object.keys(taskList)).toContain(item.task);
  });
});
