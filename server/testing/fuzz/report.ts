/** The fuzz's figures and failures, as text for the test output. */
import type { Failure, FuzzStats } from './run';

export interface FailureGroup {
  key: string;
  count: number;
  example: Failure;
  labels: Set<string>;
}

/** One group per operation, problem, status, code and family: one line per distinct cause. */
export function groupFailures(failures: readonly Failure[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const failure of failures) {
    const key = `${failure.operation} | ${failure.kind} ${failure.status}${failure.code ? ` ${failure.code}` : ''} | ${failure.family}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { key, count: 0, example: failure, labels: new Set() }));
    group.count++;
    if (group.labels.size < 6) group.labels.add(failure.label);
  }
  return [...groups.values()].sort((a, b) => a.key.localeCompare(b.key));
}

export function formatFailures(failures: readonly Failure[], limit = 80): string {
  const groups = groupFailures(failures);
  const lines = [`${failures.length} failing answers in ${groups.length} groups (operation | problem status code | family):`];
  for (const group of groups.slice(0, limit)) {
    const { example } = group;
    lines.push(`- ${group.key}  ×${group.count}`);
    lines.push(`    e.g. ${example.label} [${example.credential}]: ${example.detail}`);
    lines.push(`    ${example.request}${example.body ? `  body: ${example.body}` : ''}`);
    const others = [...group.labels].filter((label) => label !== example.label);
    if (others.length) lines.push(`    also: ${others.join(' | ')}`);
  }
  if (groups.length > limit) lines.push(`… and ${groups.length - limit} more groups`);
  return lines.join('\n');
}

export function formatFigures(stats: FuzzStats, extra: Record<string, string | number>): string {
  const statuses = [...stats.byStatus].sort(([a], [b]) => a - b).map(([status, count]) => `${status}: ${count}`).join(', ');
  const fivexx = [...stats.byStatus].filter(([status]) => status >= 500).reduce((sum, [, count]) => sum + count, 0);
  const codes = [...stats.byCode].sort(([, a], [, b]) => b - a).map(([code, count]) => `${code} ${count}`).join(', ');
  const lines = [
    ...Object.entries(extra).map(([name, value]) => `${name}: ${value}`),
    `requests sent: ${stats.requests}${stats.unsendable ? ` (${stats.unsendable} cases not representable as a request, skipped)` : ''}`,
    `answers by status: ${statuses}`,
    `5xx answers: ${fivexx}`,
    `error codes: ${codes}`,
  ];
  lines.push('answers by operation (status×count):');
  for (const [operation, statuses] of stats.byOperation) {
    lines.push(`  ${operation}: ${[...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' ')}`);
  }
  if (stats.undocumented.size) {
    lines.push('codes answered but not listed in the operation\'s document entry:');
    for (const [operation, set] of [...stats.undocumented].sort(([a], [b]) => a.localeCompare(b))) lines.push(`  ${operation}: ${[...set].sort().join(', ')}`);
  }
  return lines.join('\n');
}
