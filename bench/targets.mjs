// `npm run bench -- targets`: every cost and scale target in one run, one after the other on the
// same machine and code, then their verdict lines together:
//   1. the gateway at 1,500 requests/s against the bare proxy of the same run (bench/gateway-cost.ts);
//   2. the closed loop: the all-in-one's CPU per answer save, then the stack's saves/s beside it
//      (bench/closed-loop.mjs);
//   3. the bell: a school opens one assessment within 10 s (bench/bell.mjs).
// Uses stack mode's fixed ports (2 and 3). Exit code 0 when every part ran and every target was met.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const bench = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(bench, '..');

const PARTS = [
  {
    name: 'gateway at 1,500 requests/s',
    bench: 'gateway',
    env: { GATEWAY_COST_RATE: process.env.GATEWAY_COST_RATE ?? '1500' },
  },
  { name: 'closed loop, all-in-one and stack', bench: 'closed-loop' },
  { name: 'the bell', bench: 'bell' },
];
// A part's lines that state a target's figure and verdict.
const VERDICT = /^(Target\b|Largest class|gateway .*× the bare proxy|Stack beside the all-in-one)/;

/** Runs one part, its output passed through; resolves its exit code and verdict lines. */
function runPart({ bench: which, env = {} }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(bench, 'run.mjs'), which], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const verdicts = [];
    let rest = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      verdicts.push(...lines.filter((l) => VERDICT.test(l)));
    });
    child.once('close', (code) => resolve({ code, verdicts }));
  });
}

export async function runTargets() {
  const started = new Date();
  const results = [];
  for (const part of PARTS) {
    console.log(`\n=== ${part.name}`);
    results.push({ part, ...(await runPart(part)) });
  }
  console.log(
    `\n=== Targets, one run (${started.toISOString()} to ${new Date().toISOString()}, ${os.cpus().length} CPUs, ` +
      `load average now ${os.loadavg()[0].toFixed(2)})`,
  );
  for (const { part, code, verdicts } of results) {
    console.log(`${part.name} (exit ${code}):`);
    for (const line of verdicts.length ? verdicts : ['no verdict printed']) console.log(`  ${line}`);
  }
  const missed = results.some(({ code, verdicts }) => code !== 0 || verdicts.some((l) => /MISSED/.test(l)));
  return missed ? 1 : 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(await runTargets());
