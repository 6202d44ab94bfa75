/**
 * Prints the slowest test files at the end of a run, with where their time went (loading the file and
 * its set-up files, then its tests and hooks), so a suite that grows slower shows which file did it. CI prints it too.
 */
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

const shown = 15;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padStart(9);

export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const timed = testModules
      .map((module) => ({ module, diagnostic: module.diagnostic() }))
      .map(({ module, diagnostic }) => ({
        file: path.relative(process.cwd(), module.moduleId),
        project: module.project.name,
        total: diagnostic.collectDuration + diagnostic.setupDuration + diagnostic.duration,
        loading: diagnostic.collectDuration + diagnostic.setupDuration,
        tests: diagnostic.duration,
      }))
      .sort((a, b) => b.total - a.total)
      .slice(0, shown);
    if (!timed.length) return;
    const lines = timed.map((entry) => `${seconds(entry.total)} ${seconds(entry.loading)} ${seconds(entry.tests)}  ${entry.file} (${entry.project})`);
    console.log(`\nSlowest ${timed.length} test files (total, loading, tests and hooks):\n${lines.join('\n')}\n`);
  }
}
