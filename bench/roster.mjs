// `node bench/roster.mjs` (or `npm run bench -- roster`): a district-sized OneRoster import against
// the all-in-one. Generates a roster (default 50,000 students, 2,500 teachers, 2,000 classes, 6
// enrollments per student) as a OneRoster 1.2 zip under .cache/bench/ (gitignored), starts the
// all-in-one on a fresh temp DATA_DIR, signs in as the demo district's admin, uploads the zip
// (preview), applies it, polls until done, and reports wall times, rows/s and the peak RSS of the
// all-in-one's process tree, and the slowest /healthz answer while the preview runs and while the
// apply runs. The all-in-one's log goes to .cache/bench/roster-server.log. A second
// upload of the same zip checks that nothing is left to apply.
// Env: BENCH_ROSTER_STUDENTS, BENCH_ROSTER_TEACHERS, BENCH_ROSTER_CLASSES, BENCH_ROSTER_PER_STUDENT.
import { randomBytes } from 'node:crypto';
import { mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { strToU8, zipSync } from 'fflate';
import { startAllInOne } from './all-in-one.mjs';

const bench = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(bench, '..');
const STUDENTS = Number(process.env.BENCH_ROSTER_STUDENTS ?? 50_000);
const TEACHERS = Number(process.env.BENCH_ROSTER_TEACHERS ?? 2_500);
const CLASSES = Number(process.env.BENCH_ROSTER_CLASSES ?? 2_000);
const PER_STUDENT = Number(process.env.BENCH_ROSTER_PER_STUDENT ?? 6);
const DOMAIN = 'demo.checkpoint.school';
const log = (msg) => console.log(`› ${msg}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ------------------------------------------------------------------------------ the roster
function generate() {
  const t0 = performance.now();
  const users = ['sourcedId,status,dateLastModified,enabledUser,username,userIds,givenName,familyName,email,password'];
  const roles = ['sourcedId,status,dateLastModified,userSourcedId,roleType,role,orgSourcedId'];
  for (let i = 0; i < TEACHERS; i++) {
    users.push(`t${i},,,true,t${i},,Teacher${i},Bench,t${i}.bench@${DOMAIN},`);
    roles.push(`rt${i},,,t${i},primary,teacher,org1`);
  }
  for (let i = 0; i < STUDENTS; i++) {
    // One student in ten has no email (signs in by SSO only).
    users.push(`s${i},,,true,s${i},,Student${i},Bench,${i % 10 === 9 ? '' : `s${i}.bench@${DOMAIN}`},`);
    roles.push(`rs${i},,,s${i},primary,student,org1`);
  }
  const classes = ['sourcedId,status,dateLastModified,title,courseSourcedId,schoolSourcedId,subjects,periods'];
  const enrollments = ['sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,primary'];
  for (let c = 0; c < CLASSES; c++) {
    classes.push(
      `c${c},,,Class ${c},course${c % 50},org1,${['Math', 'Science', 'English', 'History'][c % 4]},${(c % 8) + 1}`,
    );
    enrollments.push(`et${c},,,c${c},org1,t${c % TEACHERS},teacher,true`);
  }
  for (let s = 0; s < STUDENTS; s++)
    for (let k = 0; k < PER_STUDENT; k++) {
      const c = (s * PER_STUDENT + k * 7919) % CLASSES;
      enrollments.push(`e${s}_${k},,,c${c},org1,s${s},student,false`);
    }
  const manifest = [
    'propertyName,value',
    'manifest.version,1.0',
    'oneroster.version,1.2',
    'file.users,bulk',
    'file.roles,bulk',
    'file.classes,bulk',
    'file.enrollments,bulk',
  ];
  const csv = (lines) => strToU8(`${lines.join('\r\n')}\r\n`);
  const zip = zipSync(
    {
      'manifest.csv': csv(manifest),
      'users.csv': csv(users),
      'roles.csv': csv(roles),
      'classes.csv': csv(classes),
      'enrollments.csv': csv(enrollments),
    },
    { level: 6 },
  );
  const rows = users.length + roles.length + classes.length + enrollments.length - 4;
  const dir = path.join(root, '.cache/bench');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `roster-${STUDENTS}.zip`);
  writeFileSync(file, zip);
  log(
    `roster: ${rows} rows, ${(zip.length / 1e6).toFixed(1)} MB zipped, ${file} (${Math.round(performance.now() - t0)} ms)`,
  );
  return { zip, rows };
}

// ------------------------------------------------------------------------------ the all-in-one
/** Resident memory (kB) of `pid` and all its descendants, from /proc. */
function treeRssKb(pid) {
  const children = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(entry));
    } catch {
      // gone
    }
  }
  let total = 0;
  const stack = [pid];
  while (stack.length) {
    const p = stack.pop();
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      if (m) total += Number(m[1]);
    } catch {
      // gone
    }
    stack.push(...(children.get(p) ?? []));
  }
  return total;
}

/**
 * Asks /healthz one request after another (20 ms apart) until stopped: how many answers, the
 * slowest, and the 95th percentile.
 */
function healthzProbe(base) {
  let running = true;
  const times = [];
  const loop = (async () => {
    while (running) {
      const h0 = performance.now();
      await fetch(`${base}/healthz`).catch(() => undefined);
      times.push(performance.now() - h0);
      await sleep(20);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      times.sort((a, b) => a - b);
      const at = (q) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0);
      return { count: times.length, maxMs: at(1), p95Ms: at(0.95) };
    },
  };
}

class Session {
  cookies = new Map();
  constructor(base) {
    this.base = base;
  }
  async request(method, p, body, type = 'application/json') {
    const headers = { origin: this.base };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (method !== 'GET') headers['x-csrf-token'] = this.cookies.get('cp_csrf') ?? '';
    if (body !== undefined) headers['content-type'] = type;
    const res = await fetch(this.base + p, {
      method,
      headers,
      body: body === undefined ? undefined : type === 'application/json' ? JSON.stringify(body) : body,
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const text = await res.text();
    let json;
    try {
      json = JSON.parse(text);
    } catch {
      json = text;
    }
    return { status: res.status, body: json };
  }
}

async function main() {
  const { zip, rows } = generate();
  const password = randomBytes(12).toString('base64url');
  const serverLog = path.join(root, '.cache/bench/roster-server.log');
  const app = await startAllInOne({ DEMO_SEED: 'true', DEMO_PASSWORD: password }, { stdout: openSync(serverLog, 'w') });
  const { url: base, child: server } = app;
  log(`the all-in-one is on ${base} (DATA_DIR ${app.dataDir}, log ${serverLog})`);
  let peakKb = 0;
  const sampler = setInterval(() => {
    peakKb = Math.max(peakKb, treeRssKb(server.pid));
  }, 250);
  let code;
  try {
    const idleKb = treeRssKb(server.pid);
    peakKb = idleKb;
    const admin = new Session(base);
    await admin.request('GET', '/api/auth/user');
    const login = await admin.request('POST', '/api/auth/simple-login', { email: `admin@${DOMAIN}`, password });
    if (login.status !== 200) throw new Error(`admin sign-in: ${login.status} ${JSON.stringify(login.body)}`);

    // /healthz is asked one request after another while the preview and the apply run: the
    // longest answer is how long they held up every other request.
    // The same probe for 5 s with nothing running first: the machine's own delay, to compare.
    const idleProbe = healthzProbe(base);
    await sleep(5000);
    const idleHealthz = await idleProbe.stop();
    log(
      `/healthz at rest: ${idleHealthz.count} answers, p95 ${idleHealthz.p95Ms} ms, the slowest ${idleHealthz.maxMs} ms`,
    );
    const probe = healthzProbe(base);
    const t0 = performance.now();
    const preview = await admin.request('POST', '/api/district/roster/imports', zip, 'application/zip');
    const tPreview = performance.now() - t0;
    const previewHealthz = await probe.stop();
    log(
      `/healthz during the preview: ${previewHealthz.count} answers, p95 ${previewHealthz.p95Ms} ms, the slowest ${previewHealthz.maxMs} ms`,
    );
    if (preview.status !== 201) throw new Error(`upload: ${preview.status} ${JSON.stringify(preview.body)}`);
    log(
      `preview: ${Math.round(tPreview)} ms, ${preview.body.errorCount} errors, ${preview.body.progress.total} changes`,
    );
    const applyProbe = healthzProbe(base);
    const t1 = performance.now();
    const started = await admin.request('POST', `/api/district/roster/imports/${preview.body.id}/apply`);
    if (started.status !== 202) throw new Error(`apply: ${started.status} ${JSON.stringify(started.body)}`);
    let done;
    for (let failures = 0; ;) {
      await sleep(1000);
      const res = await admin.request('GET', `/api/district/roster/imports/${preview.body.id}?errorsLimit=1`);
      // An answer without the import (a refused or failed request) is told, not read as one.
      if (res.status !== 200 || typeof res.body !== 'object' || !res.body.progress) {
        console.log(`\n  poll: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
        if (++failures >= 10) throw new Error(`polling the import failed ${failures} times in a row`);
        continue;
      }
      failures = 0;
      if (res.body.status === 'done' || res.body.status === 'failed') {
        done = res.body;
        break;
      }
      process.stdout.write(`\r  applying ${res.body.progress.done}/${res.body.progress.total}   `);
    }
    const tApply = performance.now() - t1;
    const applyHealthz = await applyProbe.stop();
    console.log('');
    log(
      `/healthz during the apply: ${applyHealthz.count} answers, p95 ${applyHealthz.p95Ms} ms, the slowest ${applyHealthz.maxMs} ms`,
    );
    if (done.status !== 'done') throw new Error(`import failed: ${done.failure} (the server's log: ${serverLog})`);
    const t2 = performance.now();
    const again = await admin.request('POST', '/api/district/roster/imports', zip, 'application/zip');
    const tAgain = performance.now() - t2;
    const total = tPreview + tApply;
    const result = {
      students: STUDENTS,
      teachers: TEACHERS,
      classes: CLASSES,
      rows,
      zipMB: +(zip.length / 1e6).toFixed(1),
      previewMs: Math.round(tPreview),
      healthzMaxMsAtRest: idleHealthz.maxMs,
      healthzP95MsAtRest: idleHealthz.p95Ms,
      healthzP95MsDuringPreview: previewHealthz.p95Ms,
      healthzP95MsDuringApply: applyHealthz.p95Ms,
      healthzMaxMsDuringPreview: previewHealthz.maxMs,
      applyMs: Math.round(tApply),
      healthzMaxMsDuringApply: applyHealthz.maxMs,
      totalMs: Math.round(total),
      rowsPerSecond: Math.round(rows / (total / 1000)),
      reimportPreviewMs: Math.round(tAgain),
      reimportChanges: again.body.progress?.total,
      idleRssMB: Math.round(idleKb / 1024),
      peakRssMB: Math.round(peakKb / 1024),
      cpus: os.cpus().length,
    };
    console.log(JSON.stringify(result, null, 2));
    code = again.body.progress?.total === 0 ? 0 : 1;
  } finally {
    clearInterval(sampler);
    await app.stop();
  }
  process.exit(code ?? 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
