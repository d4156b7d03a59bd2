// What the benchmarks know of processes: free ports, the processes a run started (followed from
// /proc by their parent, with a role: kafka, postgres, a service, the gateway, …), their CPU
// seconds between two moments, the machine's idle share, and the reaping of what is left at the end.
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';

const log = (msg) => console.log(`› ${msg}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- ports
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

export function portIsFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer().once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

// ---------------------------------------------------------------- processes of the stack
/** pid → {ppid, start, comm} from /proc (start time tells a reused pid apart). */
export function processTable() {
  const table = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      table.set(Number(name), {
        ppid: Number(fields[1]),
        cpuTicks: Number(fields[11]) + Number(fields[12]),
        start: fields[19],
        comm: stat.slice(stat.indexOf('(') + 1, close),
      });
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

function cmdline(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/** Every process started under the stack (Kafka and its watchdog, Postgres, services, gateway, web). */
const tracked = new Map(); // pid → {start, comm, role}
export function trackDescendants(rootPid, owner = 'stack') {
  const table = processTable();
  const children = new Map();
  for (const [pid, p] of table) children.set(p.ppid, [...(children.get(p.ppid) ?? []), pid]);
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop();
    const p = table.get(pid);
    if (p && !tracked.has(pid)) tracked.set(pid, { start: p.start, comm: p.comm, role: roleOf(pid, p.comm), owner });
    stack.push(...(children.get(pid) ?? []));
  }
  return table;
}

function roleOf(pid, comm) {
  const cmd = cmdline(pid);
  if (comm === 'java' || cmd.includes('kafka.Kafka')) return 'kafka';
  if (comm.startsWith('postgres') || cmd.includes('postgres:')) return 'postgres';
  const service = /services\/(\w+)\/src\/main\.ts/.exec(cmd)?.[1];
  if (service) return service;
  if (cmd.includes('gateway/src/main.ts')) return 'gateway';
  if (cmd.includes('vite')) return 'web (vite)';
  if (cmd.includes('scripts/stack')) return 'stack runner';
  if (cmd.includes('scripts/start.mjs')) return 'all-in-one';
  return comm;
}

/**
 * The machine's share of idle, I/O wait and steal time so far (/proc/stat) and the page cache
 * still to be written to disk (/proc/meminfo): a run during heavy writeback (right after a CI
 * run's clone and install, say) shows it here. Undefined where /proc is not there.
 */
export function machineSnapshot() {
  try {
    const [, ...ticks] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    const meminfo = readFileSync('/proc/meminfo', 'utf8');
    const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(meminfo)?.[1] ?? 0);
    return { ticks, unwrittenMb: (kb('Dirty') + kb('Writeback')) / 1024 };
  } catch {
    return undefined;
  }
}

export function machineBetween(before, after) {
  if (!before || !after) return undefined;
  const delta = after.ticks.map((t, i) => t - (before.ticks[i] ?? 0));
  const total = delta.reduce((sum, t) => sum + t, 0) || 1;
  const pct = (i) => `${((100 * (delta[i] ?? 0)) / total).toFixed(0)}%`;
  // Fields: user nice system idle iowait irq softirq steal.
  return (
    `Machine during the run: idle ${pct(3)}, I/O wait ${pct(4)}, steal ${pct(7)}; ` +
    `unwritten page cache before/after ${before.unwrittenMb.toFixed(0)} / ${after.unwrittenMb.toFixed(0)} MB`
  );
}

function alive(pid, start) {
  const p = processTable().get(pid);
  return p !== undefined && p.start === start;
}

/** CPU seconds so far of each tracked process (and of `extra` role → pid), by pid and start time. */
export function cpuSnapshot(extra = {}) {
  const table = processTable();
  const hz = 100;
  const out = new Map();
  const add = (pid, role) => {
    const p = table.get(pid);
    if (p) out.set(`${pid}@${p.start}`, { role, seconds: p.cpuTicks / hz });
  };
  for (const [pid, t] of tracked) if (table.get(pid)?.start === t.start) add(pid, t.role);
  for (const [role, pid] of Object.entries(extra)) add(pid, role);
  return out;
}

/**
 * CPU seconds by role between two snapshots. A process that ended in between (a Postgres backend
 * whose pool connection idled out) is left out rather than counted negative; one that started in
 * between counts in full.
 */
export function cpuBetween(before, after) {
  const out = {};
  for (const [key, { role, seconds }] of after)
    out[role] = (out[role] ?? 0) + seconds - (before.get(key)?.seconds ?? 0);
  return out;
}

/**
 * Waits up to 60 s for the tracked processes of `owners` to end, kills what is left, and reports:
 * `killed` had to be killed, `left` are running even after that.
 */
export async function reapTracked(owners, what) {
  const end = Date.now() + 60_000;
  const left = () => [...tracked].filter(([pid, t]) => owners.has(t.owner) && alive(pid, t.start));
  while (left().length && Date.now() < end) await sleep(500);
  const remaining = left();
  for (const [pid, t] of remaining) {
    console.error(`  still running after 60 s: ${t.role} (pid ${pid}), killing it`);
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await sleep(500);
  const after = left();
  if (after.length) console.error(`  could not stop: ${after.map(([pid, t]) => `${t.role} ${pid}`).join(', ')}`);
  else log(`stopped: ${tracked.size} processes seen (${what}), none left`);
  return { killed: remaining.length, left: after.length };
}
