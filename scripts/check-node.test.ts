import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const checkScript = path.join(root, 'scripts', 'check-node.cjs');

interface CheckNode {
  problem(version: string, range: string, fromDirectory: string): string | null;
  engineRange(): string;
}
const { problem, engineRange } = createRequire(import.meta.url)(checkScript) as CheckNode;

const packageJson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** The machine's own Node when it is older than this one (these machines ship Node 20 in /usr/bin). */
function olderSystemNode(): string | null {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node', '/bin/node']) {
    if (!existsSync(candidate)) continue;
    const version = spawnSync(candidate, ['--version'], { encoding: 'utf8' }).stdout.trim();
    if (problem(version, engineRange(), root)) return candidate;
  }
  return null;
}
const oldNode = olderSystemNode();

describe('hardening 14: Node 22 LTS is the prerequisite and an older Node stops npm start/dev/test with one line', () => {
  it('states Node 22.18 or newer in engines and types Node 22 APIs', () => {
    expect(packageJson.engines.node).toBe('>=22.18');
    expect(packageJson.devDependencies['@types/node']).toMatch(/^\^22\./);
  });

  it('checks the Node version before start, dev, test and the production entry points, not in postinstall', () => {
    for (const name of ['start', 'dev', 'test', 'web', 'runner']) {
      expect(packageJson.scripts[name], name).toMatch(/^node scripts\/check-node\.cjs && /);
    }
    // npm install must keep working on the older Node, so a machine can install before fetching Node 22.
    expect(packageJson.scripts.postinstall).not.toContain('check-node');
  });

  it('names what to install and the command to run, in one line, for a Node older than 22.18', () => {
    expect(problem('v20.20.2', '>=22.18', root)).toBe(
      'mailflow needs Node.js 22.18 or newer (22 LTS), this is v20.20.2: install it, or run  eval "$(scripts/setup-node.sh)"  ' +
        '(fetches Node 22 into .tools/node once and puts it first on PATH in this shell), then try again.',
    );
    // The command runs from wherever npm was typed (npm finds package.json upwards).
    expect(problem('v20.20.2', '>=22.18', path.join(root, 'server', 'core'))).toContain('run  eval "$(../../scripts/setup-node.sh)"  ');
    expect(problem('v20.20.2', '>=22.18', path.join(root, 'scripts'))).toContain('run  eval "$(./setup-node.sh)"  ');

    expect(problem('v22.17.1', '>=22.18', root)).not.toBeNull();
    expect(problem('v18.20.0', '>=22.18', root)).not.toBeNull();
    for (const recent of ['v22.18.0', 'v22.23.3', 'v23.0.0', 'v24.11.1']) expect(problem(recent, '>=22.18', root)).toBeNull();
  });

  it('passes silently on this Node', () => {
    const run = spawnSync(process.execPath, [checkScript], { encoding: 'utf8' });
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({ status: 0, stdout: '', stderr: '' });
  });

  it.skipIf(!oldNode)('stops the machine\'s older Node with exit 1 and that one line (needs an older Node in /usr/bin)', () => {
    const run = spawnSync(oldNode!, [checkScript], { encoding: 'utf8', cwd: root, env: { ...process.env, INIT_CWD: root } });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^mailflow needs Node\.js 22\.18 or newer \(22 LTS\), this is v\d+\.\d+\.\d+: [^\n]+\n$/);
    expect(run.stderr).toContain('eval "$(scripts/setup-node.sh)"');
  });

  it('keeps .ci/run running exactly the README\'s test command, after providing Node 22', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const testCommand = /To run every test[^\n]*\n\n```sh\n([^\n]+)\n```/.exec(readme)?.[1];
    expect(testCommand).toBe('npm install && npm test');
    const ci = readFileSync(path.join(root, '.ci', 'run'), 'utf8').split('\n');
    const provide = ci.findIndex((line) => line.includes('scripts/setup-node.sh'));
    expect(provide).toBeGreaterThanOrEqual(0);
    expect(ci.indexOf(testCommand!)).toBeGreaterThan(provide);
  });
});
