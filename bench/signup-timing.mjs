// `node bench/signup-timing.mjs`: does the time a password sign-up takes tell whether the address
// has an account (docs/security.md, "Sign-up tells nobody who is registered")? Starts the
// all-in-one on a fresh temp DATA_DIR (rate limits raised so that only the work is measured),
// registers BENCH_SIGNUP_ACCOUNTS accounts by their mailed links, then sends sign-ups one after
// another, alternating a registered address and a new one, for BENCH_SIGNUP_SECONDS, and reports
// each kind's percentiles and the ratio of their medians (1.00 = the same time).
// Env: BENCH_SIGNUP_ACCOUNTS (default 20), BENCH_SIGNUP_SECONDS (default 30).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startAllInOne } from './all-in-one.mjs';
import { Session } from './session.mjs';

const ACCOUNTS = Number(process.env.BENCH_SIGNUP_ACCOUNTS ?? 20);
const SECONDS = Number(process.env.BENCH_SIGNUP_SECONDS ?? 30);
const PASSWORD = 'a long bench passphrase';
const log = (msg) => console.log(`› ${msg}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The newest /verify-email link mailed to `email` (the all-in-one's local mailbox), waiting up to 30 s. */
async function mailedToken(dataDir, email) {
  for (const end = Date.now() + 30_000; Date.now() < end; await sleep(100)) {
    let entries = [];
    try {
      entries = JSON.parse(readFileSync(path.join(dataDir, 'mailbox', 'index.json'), 'utf8'));
    } catch {
      // not written yet
    }
    for (const entry of entries) {
      if (!entry.to.includes(email)) continue;
      const token = /\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(entry.text)?.[1];
      if (token) return token;
    }
  }
  throw new Error(`no sign-up link mailed to ${email} within 30 s`);
}

const signUpBody = (email) => ({ firstName: 'Bench', lastName: 'Timing', email, password: PASSWORD, role: 'teacher' });

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main() {
  const app = await startAllInOne({ RATE_LIMIT_SIGNUP_PER_MINUTE: '10000', RATE_LIMIT_EMAIL_PER_MINUTE: '10000' });
  const { url: base, dataDir } = app;
  log(`the all-in-one is on ${base} (DATA_DIR ${dataDir})`);
  try {
    const run = Date.now().toString(36);
    const registered = [];
    for (let i = 0; i < ACCOUNTS; i++) {
      const email = `registered.${i}.${run}@bench.example.com`;
      const s = new Session(base);
      const asked = await s.request('POST', '/api/auth/simple-signup', signUpBody(email));
      if (asked.status !== 202) throw new Error(`sign-up of ${email}: ${asked.status} ${JSON.stringify(asked.body)}`);
      const opened = await s.request('POST', '/api/auth/email/verify', { token: await mailedToken(dataDir, email) });
      if (opened.status !== 201) throw new Error(`link of ${email}: ${opened.status} ${JSON.stringify(opened.body)}`);
      registered.push(email);
    }
    log(`${ACCOUNTS} accounts registered; alternating sign-ups for ${SECONDS} s`);

    const times = { registered: [], new: [] };
    const answers = new Set();
    const client = new Session(base);
    await client.request('GET', '/api/auth/user'); // the CSRF cookie, outside the measure
    let n = 0;
    for (const end = Date.now() + SECONDS * 1000; Date.now() < end; n++) {
      const kind = n % 2 === 0 ? 'registered' : 'new';
      const email = kind === 'registered' ? registered[(n / 2) % ACCOUNTS] : `new.${n}.${run}@bench.example.com`;
      const t0 = performance.now();
      const res = await client.request('POST', '/api/auth/simple-signup', signUpBody(email));
      times[kind].push(performance.now() - t0);
      // Everything but the address itself must be the same.
      answers.add(`${res.status} ${JSON.stringify({ ...res.body, email: '…' })}`);
    }
    const rows = Object.entries(times).map(([kind, list]) => {
      const sorted = [...list].sort((a, b) => a - b);
      const [p50, p90, p99] = [50, 90, 99].map((p) => percentile(sorted, p));
      return { kind, n: list.length, p50, p90, p99 };
    });
    for (const r of rows)
      log(
        `${r.kind.padEnd(10)} n=${r.n}  p50 ${r.p50.toFixed(1)} ms  p90 ${r.p90.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms`,
      );
    const ratio = rows[0].p50 / rows[1].p50;
    log(`registered/new median ratio ${ratio.toFixed(2)}; distinct answers: ${[...answers].join(' | ')}`);
    if (answers.size !== 1) throw new Error('the answers differ between registered and new addresses');
  } finally {
    await app.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
