/**
 * A private Dovecot IMAP server for tests (Debian `dovecot-imapd`, `/usr/sbin/dovecot`): a throw-away
 * configuration, users, maildirs, certificate and log under one temporary directory, a plaintext
 * listener (STARTTLS offered) and an implicit-TLS listener on free 127.0.0.1 ports. Several instances
 * may run at once (each test file may start its own).
 *
 * As root (these machines) the master runs as root, logins as `dovenull`, mail processes as
 * `nobody:nogroup`, which owns the mail directory. As another user everything runs as that user.
 *
 * The server runs in its own process group, guarded against orphaning: if the test process dies
 * without `stop()`, a guardian stops Dovecot.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { findFreePort } from '@/server/core/free-port';
import { guardAgainstOrphans } from '@/server/core/orphan-guard';
import { stopProcessGroup, waitForListener } from './process-control';
import { createSelfSignedCert } from './self-signed-cert';

export const dovecotBinary = '/usr/sbin/dovecot';

export interface MailUser {
  user: string;
  password: string;
}

export interface DovecotOptions {
  users: MailUser[];
  /** Seconds Dovecot waits before answering a failed login (its own default is 2). Default 0 for quick tests. */
  authFailureDelaySeconds?: number;
  /**
   * Keep Dovecot's auth penalty (after failed logins from an address, its next logins wait 2 s, 4 s, ...
   * up to 15 s), as a real server does. Default false: no penalty.
   */
  authPenalty?: boolean;
  /** Copies Dovecot's log lines into the directory only; `true` also enables auth and mail debug lines. */
  debug?: boolean;
}

export interface DovecotServer {
  host: '127.0.0.1';
  /** Plaintext IMAP; STARTTLS is offered. */
  plainPort: number;
  /** IMAP over implicit TLS (imaps). */
  tlsPort: number;
  /** The self-signed certificate both listeners present (CN/SAN localhost, SAN 127.0.0.1). */
  certPem: string;
  /** The temporary directory holding everything; removed by `stop()`. */
  dir: string;
  /** Adds (or replaces the password of) a user; Dovecot re-reads the passwd file on its next login. */
  addUser(user: MailUser): Promise<void>;
  /**
   * Stops Dovecot (every client connection is cut, as on a real server's restart) and starts it again
   * on the same ports with the same users and mail; resolves once it listens again. `downMs` keeps it
   * down that long in between.
   */
  restart(options?: { downMs?: number }): Promise<void>;
  /** Dovecot's log so far (for a failing test's message). */
  readLog(): Promise<string>;
  /** SIGTERM, SIGKILL after 5 s, then removes `dir`. Safe to call twice. */
  stop(): Promise<void>;
}

const host = '127.0.0.1';
const startTimeoutMs = 20_000;
const userPattern = /^[A-Za-z0-9._+@-]{1,128}$/;

function passwdLine({ user, password }: MailUser): string {
  if (!userPattern.test(user)) throw new Error(`test mail user name not allowed: ${JSON.stringify(user)}`);
  if (/[:\r\n\0]/.test(password) || password.length === 0) {
    throw new Error('test mail password must be non-empty without ":", CR, LF or NUL (passwd-file format)');
  }
  return `${user}:{PLAIN}${password}::::::\n`;
}

interface RunAs {
  uid: number;
  gid: number;
  /** default_internal_user / default_login_user. */
  internalUser: string;
  loginUser: string;
  /** userdb static uid/gid (names or numbers). */
  mailUid: string;
  mailGid: string;
}

function runAs(): RunAs {
  const uid = process.getuid?.() ?? 0;
  if (uid === 0) {
    return { uid: 65534, gid: 65534, internalUser: 'dovecot', loginUser: 'dovenull', mailUid: 'nobody', mailGid: 'nogroup' };
  }
  const me = userInfo();
  const gid = process.getgid?.() ?? me.gid;
  return { uid, gid, internalUser: me.username, loginUser: me.username, mailUid: String(uid), mailGid: String(gid) };
}

function configText(dir: string, plainPort: number, tlsPort: number, who: RunAs, options: DovecotOptions): string {
  const debug = options.debug ? 'yes' : 'no';
  return `# Generated for one test run; see server/testing/mail-servers/dovecot.ts.
base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
instance_name = mailflow-test-${path.basename(dir)}
listen = ${host}
protocols = imap
ssl = yes
ssl_cert = <${dir}/cert.pem
ssl_key = <${dir}/key.pem
ssl_dh = </usr/share/dovecot/dh.pem
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = ${options.authFailureDelaySeconds ?? 0} secs
auth_verbose = ${debug}
auth_debug = ${debug}
mail_debug = ${debug}
default_internal_user = ${who.internalUser}
default_login_user = ${who.loginUser}
first_valid_uid = 1
first_valid_gid = 1
mail_location = maildir:~/Maildir
mail_max_userip_connections = 1000
shutdown_clients = yes

passdb {
  driver = passwd-file
  args = scheme=PLAIN ${dir}/users/%u
}
userdb {
  driver = static
  args = uid=${who.mailUid} gid=${who.mailGid} home=${dir}/mail/%u
}

namespace inbox {
  inbox = yes
  separator = /
  mailbox Drafts {
    special_use = \\Drafts
    auto = subscribe
  }
  mailbox Sent {
    special_use = \\Sent
    auto = subscribe
  }
  mailbox Trash {
    special_use = \\Trash
    auto = subscribe
  }
  mailbox Junk {
    special_use = \\Junk
    auto = subscribe
  }
  mailbox Archive {
    special_use = \\Archive
    auto = subscribe
  }
}

${
  options.authPenalty
    ? ''
    : `# No auth penalty (the growing delay after failed logins from one address): the auth process cannot
# reach anvil's penalty socket, so it skips the lookup.
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
`
}
protocol imap {
  mail_max_userip_connections = 1000
}

service imap-login {
  inet_listener imap {
    address = ${host}
    port = ${plainPort}
  }
  inet_listener imaps {
    address = ${host}
    port = ${tlsPort}
    ssl = yes
  }
}
`;
}

export async function startDovecot(options: DovecotOptions): Promise<DovecotServer> {
  if (!existsSync(dovecotBinary)) {
    throw new Error(`${dovecotBinary} is missing: install Debian's dovecot-imapd (.ci/run does it)`);
  }
  let lastError: unknown;
  // A free port can be taken between our probe and Dovecot's bind: try again with new ports.
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      return await startOnce(options);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

async function startOnce(options: DovecotOptions): Promise<DovecotServer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'mailflow-dovecot-'));
  const who = runAs();
  let child: ChildProcess | null = null;
  try {
    // Login and mail processes run as other users and must reach their files under `dir`.
    await chmod(dir, 0o755);
    const mailDir = path.join(dir, 'mail');
    await mkdir(mailDir);
    await mkdir(path.join(dir, 'run'));
    await mkdir(path.join(dir, 'state'));
    await chown(mailDir, who.uid, who.gid);
    // One passwd file per user (`users/<name>`): Dovecot reads a new file at its first lookup, while it
    // re-checks a known file at most once a second (by mtime and size).
    const usersDir = path.join(dir, 'users');
    await mkdir(usersDir, { mode: 0o755 });
    const written = new Map<string, number>();
    const writeUser = async (user: MailUser) => {
      const line = passwdLine(user);
      const previous = written.get(user.user);
      if (previous !== undefined) {
        // A replaced password must land in a later second than the previous write and lookup.
        const wait = previous + 1_100 - Date.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
      const next = path.join(usersDir, `.${user.user}.tmp`);
      await writeFile(next, line, { mode: 0o644 });
      await rename(next, path.join(usersDir, user.user));
      written.set(user.user, Date.now());
    };
    for (const user of options.users) await writeUser(user);
    const cert = await createSelfSignedCert(dir);
    const [plainPort, tlsPort] = await distinctFreePorts(2);
    const configPath = path.join(dir, 'dovecot.conf');
    await writeFile(configPath, configText(dir, plainPort, tlsPort, who, options));

    let running = await spawnDovecot(configPath, dir, plainPort, tlsPort);
    child = running.child;

    let stopped: Promise<void> | null = null;
    return {
      host,
      plainPort,
      tlsPort,
      certPem: cert.certPem,
      dir,
      async addUser(user) {
        await writeUser(user);
      },
      async restart(restartOptions = {}) {
        if (stopped) throw new Error('dovecot was stopped');
        await stopProcessGroup(running.child);
        running.guard?.disarm();
        if (restartOptions.downMs) await new Promise((resolve) => setTimeout(resolve, restartOptions.downMs));
        running = await spawnDovecot(configPath, dir, plainPort, tlsPort);
      },
      readLog: () => readFile(path.join(dir, 'dovecot.log'), 'utf8').catch(() => ''),
      stop() {
        stopped ??= (async () => {
          await stopProcessGroup(running.child);
          running.guard?.disarm();
          await rm(dir, { recursive: true, force: true });
        })();
        return stopped;
      },
    };
  } catch (error) {
    if (child) await stopProcessGroup(child).catch(() => {});
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Starts the master process on a written configuration and waits for both listeners. */
async function spawnDovecot(configPath: string, dir: string, plainPort: number, tlsPort: number): Promise<{ child: ChildProcess; guard: ReturnType<typeof guardAgainstOrphans> | null }> {
  let output = '';
  const started = spawn(dovecotBinary, ['-F', '-c', configPath], { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let spawnError: Error | null = null;
  started.on('error', (error) => (spawnError = error));
  const guard = started.pid ? guardAgainstOrphans([-started.pid], { signal: 'SIGTERM', graceMs: 3_000 }) : null;

  const failure = (): Error | null => {
    if (spawnError) return spawnError;
    if (started.exitCode !== null || started.signalCode !== null) {
      return new Error(`dovecot exited (${started.exitCode ?? started.signalCode}): ${output.trim()}`);
    }
    return null;
  };
  try {
    await waitForListener(host, plainPort, { timeoutMs: startTimeoutMs, abort: failure });
    await waitForListener(host, tlsPort, { timeoutMs: startTimeoutMs, abort: failure });
  } catch (error) {
    await stopProcessGroup(started).catch(() => {});
    guard?.disarm();
    const logText = await readFile(path.join(dir, 'dovecot.log'), 'utf8').catch(() => '');
    throw new Error(`${(error as Error).message}\n${logText.slice(-4000)}`, { cause: error });
  }
  return { child: started, guard };
}

async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await findFreePort(host));
  return [...ports];
}
