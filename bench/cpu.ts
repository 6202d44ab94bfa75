/**
 * CPU time accounting from /proc (Linux): per server process, for the PostgreSQL cluster (postmaster
 * and its backends, exited backends included through the postmaster's children totals), for this
 * process (the load generator) and for the whole machine. CPU time per request does not depend on
 * how busy the machine is with other work, unlike req/s; the machine totals say how much of the CPU
 * other processes took during a phase.
 */
import { readdirSync, readFileSync } from 'node:fs';

const ticksPerSecond = 100; // USER_HZ: 100 on every Linux platform Node supports

function statFields(pid: number | string): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces: split after its closing parenthesis.
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** utime+stime of one process (all threads), ms; with `children`, plus its waited-for children. */
export function processCpuMs(pid: number, children = false): number {
  const fields = statFields(pid);
  if (!fields) return Number.NaN;
  // After the command: state is index 0, so utime (field 14) is index 11, stime 12, cutime 13, cstime 14.
  let ticks = Number(fields[11]) + Number(fields[12]);
  if (children) ticks += Number(fields[13]) + Number(fields[14]);
  return (ticks * 1000) / ticksPerSecond;
}

/** The postmaster (with its exited children) and every live child of it, ms. */
export function clusterCpuMs(postmasterPid: number): number {
  let total = processCpuMs(postmasterPid, true);
  if (!Number.isFinite(total)) return Number.NaN;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (fields && Number(fields[1]) === postmasterPid) total += processCpuMs(Number(entry));
  }
  return total;
}

/** The pid of a process named `command` whose command line contains `argument`, or null (e.g. a server started for this run). */
export function pidOf(command: string, argument: string): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== command) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(argument)) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

/** Busy and total CPU time of the machine (all cores), ms. */
export function machineCpuMs(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal guest guest_nice (guest time is inside user)
  const idle = values[3] + (values[4] ?? 0);
  const total = values.slice(0, 8).reduce((sum, value) => sum + value, 0);
  return { busy: ((total - idle) * 1000) / ticksPerSecond, total: (total * 1000) / ticksPerSecond };
}

export function selfCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

export interface CpuSample {
  server: number;
  cluster: number;
  self: number;
  machineBusy: number;
  machineTotal: number;
}

export function sampleCpu(serverPid: number, postmasterPid: number | null): CpuSample {
  const machine = machineCpuMs();
  return {
    server: processCpuMs(serverPid),
    cluster: postmasterPid ? clusterCpuMs(postmasterPid) : Number.NaN,
    self: selfCpuMs(),
    machineBusy: machine.busy,
    machineTotal: machine.total,
  };
}

export interface CpuUse {
  /** ms of CPU over the phase. */
  server: number;
  cluster: number;
  loadGenerator: number;
  /** Busy CPU of processes other than the server, the cluster and us, and the machine's total (all cores), ms. */
  others: number;
  machine: number;
}

export function cpuBetween(before: CpuSample, after: CpuSample): CpuUse {
  const server = after.server - before.server;
  const cluster = after.cluster - before.cluster;
  const loadGenerator = after.self - before.self;
  const busy = after.machineBusy - before.machineBusy;
  const ours = server + (Number.isFinite(cluster) ? cluster : 0) + loadGenerator;
  return { server, cluster, loadGenerator, others: Math.max(0, busy - ours), machine: after.machineTotal - before.machineTotal };
}

export function addCpu(a: CpuUse, b: CpuUse): CpuUse {
  return {
    server: a.server + b.server,
    cluster: a.cluster + b.cluster,
    loadGenerator: a.loadGenerator + b.loadGenerator,
    others: a.others + b.others,
    machine: a.machine + b.machine,
  };
}

/** Share of the machine's CPU that other processes took. */
export function othersShare(use: CpuUse): number {
  return use.machine > 0 ? use.others / use.machine : Number.NaN;
}

/** Background CPU use of the machine over `ms`, as a share of all cores. */
export async function backgroundShare(ms = 1_000): Promise<number> {
  const before = machineCpuMs();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = machineCpuMs();
  return (after.busy - before.busy) / (after.total - before.total);
}
