/** Node-level issue paths for the settings form: `nodes[2].retry.maxAttempts` or `retry.maxAttempts` → `retry.maxAttempts`. */
import { graphIssueTarget } from './paths';

export function normaliseNodeIssuePath(path: string): string | null {
  const target = graphIssueTarget(path);
  if (target) return target.area === 'node' ? target.path : null;
  return path;
}
