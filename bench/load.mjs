// A closed-loop HTTP load generator cheap enough not to be the bottleneck (bench/closed-loop.mjs):
// one keep-alive socket per simulated client, each with one request in flight at a time; requests
// are written as raw HTTP/1.1 text and answers parsed just enough to find their end and status.
// No HTTP client library: its own per-request cost would show up as the product's limit.
// Usage: node bench/load.mjs <plan.json>; plan: { url, seconds, warmupSeconds, clients: [{ headers,
// saves: [object…] }] }. Each client sends POST <url> with its headers and its saves in turn as
// JSON, each with `clientSeq` counting up (a later save of an answer replaces the earlier one).
// Prints MEASURE_START and MEASURE_END around the measured window, then one JSON line: requests,
// answers by status, latency percentiles (ms), own CPU seconds.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { percentile } from './stats.mjs';

const planFile = process.argv[2];
if (!planFile) throw new Error('usage: node bench/load.mjs <plan.json>');
const plan = JSON.parse(readFileSync(planFile, 'utf8'));
for (const field of ['url', 'seconds', 'warmupSeconds', 'clients'])
  if (plan[field] === undefined) throw new Error(`load plan: ${field} is missing`);
if (!Array.isArray(plan.clients) || plan.clients.length === 0) throw new Error('load plan: clients must be a list');
const target = new URL(plan.url);
// Optional: at most this many requests per second in all (each client paced to its share), so
// that two builds can be compared at the same rate; unset: as fast as the answers come.
const rate = plan.ratePerSecond === undefined ? undefined : Number(plan.ratePerSecond);
if (rate !== undefined && !(rate > 0)) throw new Error('load plan: ratePerSecond must be a positive number');
const intervalMs = rate ? (1000 * plan.clients.length) / rate : 0;
const port = Number(target.port || 80);

const HEADER_END = Buffer.from('\r\n\r\n');
const CHUNKED_END = Buffer.from('\r\n0\r\n\r\n');
/** Latencies in µs of the measured window, and answers by status. */
const latencies = [];
const statuses = new Map();
let measuring = false;
let stopping = false;
let socketErrors = 0;

function requestText(headers, body) {
  // Written per request: the body changes (clientSeq), and this costs a few µs.
  const head = [
    `POST ${target.pathname}${target.search} HTTP/1.1`,
    `Host: ${target.host}`,
    'Connection: keep-alive',
    'Content-Type: application/json',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    `Content-Length: ${Buffer.byteLength(body)}`,
  ];
  return `${head.join('\r\n')}\r\n\r\n${body}`;
}

/** The length of the answer at the start of `buf` when it is complete; -1 while it is not. */
function answerLength(buf) {
  const end = buf.indexOf(HEADER_END);
  if (end < 0) return -1;
  const head = buf.toString('latin1', 0, end).toLowerCase();
  const length = /\r\ncontent-length:\s*(\d+)/.exec(head);
  if (length) {
    const total = end + 4 + Number(length[1]);
    return buf.length >= total ? total : -1;
  }
  if (/\r\ntransfer-encoding:\s*chunked/.test(head)) {
    const last = buf.indexOf(CHUNKED_END, end);
    return last < 0 ? -1 : last + CHUNKED_END.length;
  }
  return end + 4; // no body (204, 304)
}

function runClient({ headers, saves }) {
  if (!Array.isArray(saves) || saves.length === 0) throw new Error('load plan: every client needs saves');
  let next = 0;
  let seq = 0;
  let pending = Buffer.alloc(0);
  let sentAt = 0n;
  let due = performance.now() + Math.random() * intervalMs;
  const socket = net.connect(port, target.hostname);
  socket.setNoDelay(true);
  const send = () => {
    if (stopping) return socket.end();
    if (intervalMs) {
      const wait = due - performance.now();
      due = Math.max(due, performance.now() - intervalMs) + intervalMs;
      if (wait > 1) return void setTimeout(write, wait);
    }
    write();
  };
  const write = () => {
    if (stopping) return socket.end();
    sentAt = process.hrtime.bigint();
    socket.write(requestText(headers, JSON.stringify({ ...saves[next], clientSeq: ++seq })));
    next = (next + 1) % saves.length;
  };
  socket.on('connect', send);
  socket.on('data', (chunk) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    const length = answerLength(pending);
    if (length < 0) return;
    const status = pending.toString('latin1', 9, 12);
    pending = pending.subarray(length);
    if (measuring) {
      latencies.push(Number(process.hrtime.bigint() - sentAt) / 1000);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    send();
  });
  socket.on('error', () => {
    socketErrors++;
  });
  return socket;
}

const sockets = plan.clients.map(runClient);
await new Promise((r) => setTimeout(r, plan.warmupSeconds * 1000));
measuring = true;
console.log('MEASURE_START');
const cpuBefore = process.cpuUsage();
const started = performance.now();
await new Promise((r) => setTimeout(r, plan.seconds * 1000));
measuring = false;
console.log('MEASURE_END');
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
stopping = true;
for (const s of sockets) s.destroy();

latencies.sort((a, b) => a - b);
const pct = (p) => (percentile(latencies, p) ?? 0) / 1000;
const ok = [...statuses].filter(([s]) => s.startsWith('2')).reduce((n, [, c]) => n + c, 0);
console.log(
  JSON.stringify({
    seconds,
    requests: latencies.length,
    ok,
    statuses: Object.fromEntries(statuses),
    socketErrors,
    perSecond: latencies.length / seconds,
    ms: { p50: pct(50), p95: pct(95), p99: pct(99), max: pct(100) },
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  }),
);
process.exit(0);
