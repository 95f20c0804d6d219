// PostgreSQL's own CPU, read from /proc when the database runs on this machine: the bench's
// processes share the machine's cores with it, so the CPU a path costs the database weighs on its
// throughput as much as its own process's does (B3 reports both, for the gateway and its floor).

import { readdirSync, readFileSync } from 'node:fs';

/** Linux reports process CPU in clock ticks of USER_HZ, which is 100 on every architecture it runs on. */
const MS_PER_TICK = 10;

/** Whether `url` names a PostgreSQL server on this machine (its processes are then in /proc). */
export function isLocalDatabase(url: string | undefined): boolean {
  if (!url) return false;
  try {
    const host = new URL(url).hostname;
    return host === '127.0.0.1' || host === 'localhost' || host === '[::1]' || host === '';
  } catch {
    return false;
  }
}

/**
 * CPU used so far, in milliseconds, by every `postgres` process of this machine (the server, its
 * background workers and every session), with the CPU of the sessions that have ended, which the
 * server counts as its reaped children's; undefined where /proc cannot be read or shows none.
 */
export function postgresCpuMs(): number | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return undefined;
  }
  let ticks = 0;
  let found = false;
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') continue;
    ticks += cpuTicks(stat, true);
    found = true;
  }
  return found ? ticks * MS_PER_TICK : undefined;
}

/** CPU (user + system) process `pid` has used so far, in milliseconds, its reaped children's not included. */
export function processCpuMs(pid: number): number {
  return cpuTicks(readFileSync(`/proc/${pid}/stat`, 'utf8'), false) * MS_PER_TICK;
}

/** The CPU ticks in a /proc/<pid>/stat line: utime and stime, with cutime and cstime when `children`. */
function cpuTicks(stat: string, children: boolean): number {
  // `pid (comm) state ppid …`: comm may hold spaces, so fields are counted after its ')'; utime,
  // stime, cutime and cstime are fields 14-17 of proc(5), here 11-14 counted from `state`.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]) + (children ? Number(fields[13]) + Number(fields[14]) : 0);
}
