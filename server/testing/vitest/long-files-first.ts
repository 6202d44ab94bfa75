/**
 * Vitest's order, with the files that run for minutes moved to the front: a file that starts last and
 * runs two minutes leaves the other worker idle for those minutes at the end of the run. Vitest orders by
 * the durations it remembers, but a clean clone (CI) remembers none and falls back to file size, which
 * says nothing here. What takes minutes here is the fuzz of the whole surface and the tests that drive
 * real processes (runners and web processes SIGKILLed, `npm start`'s supervisor), recognised by their source text.
 */
import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The runner crash tests start their processes through the helpers, without naming child_process.
const drivesProcesses = /\bchild_process\b|\brunnerProcesses\(|\bwebProcesses\(|fuzz\.int\.test/;

function isLong(file: string): boolean {
  if (drivesProcesses.test(file)) return true;
  try {
    return drivesProcesses.test(readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
}

export default class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const long = sorted.filter((file) => isLong(file.moduleId));
    return [...long, ...sorted.filter((file) => !long.includes(file))];
  }
}
