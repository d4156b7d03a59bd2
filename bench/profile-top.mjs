// Summarises a .cpuprofile written with BENCH_PROFILE_DIR: self time by function and by package.
// Usage: node bench/profile-top.mjs <file.cpuprofile> [top=25] [window seconds=20]
// Only the busiest window of the profile counts (the measured class crowd, not start-up and seeding).
import { readFileSync } from 'node:fs';

const [file, topArg, windowArg] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const top = Number(topArg ?? 25);
const windowUs = Number(windowArg ?? 20) * 1e6;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const isIdle = (id) => byId.get(id).callFrame.functionName === '(idle)';
// Sample times, then the window with the most non-idle samples (two pointers).
const times = [];
let t = profile.startTime;
for (const d of profile.timeDeltas) times.push((t += d));
let best = [0, 0];
let busy = 0;
for (let lo = 0, hi = 0; hi < times.length; hi++) {
  if (!isIdle(profile.samples[hi])) busy++;
  while (times[hi] - times[lo] > windowUs) if (!isIdle(profile.samples[lo++])) busy--;
  if (busy > best[0]) best = [busy, lo, hi];
}
const [, from, to] = best;
const counts = new Map();
for (const id of profile.samples.slice(from, to + 1)) counts.set(id, (counts.get(id) ?? 0) + 1);
const total = to - from + 1;
const self = new Map();
const byPackage = new Map();
for (const [id, c] of counts) {
  const { functionName, url, lineNumber } = byId.get(id).callFrame;
  const where = url.replace(/^file:\/\//, '').replace(/.*\/node_modules\//, '');
  const key = `${functionName || '(anonymous)'}  ${where}:${lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + c);
  const pkg =
    functionName.startsWith('(') && !url
      ? functionName
      : url.includes('node_modules/')
        ? url
            .split('node_modules/')
            .pop()
            .split('/')
            .slice(0, url.includes('node_modules/@') ? 2 : 1)
            .join('/')
        : url.startsWith('node:')
          ? 'node internals'
          : url
            ? url
                .replace(/^file:\/\/\/work\/main\//, '')
                .split('/')
                .slice(0, 2)
                .join('/')
            : '(native)';
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + c);
}
const pct = (c) => `${((100 * c) / total).toFixed(1).padStart(5)}%`;
console.log(`${file}: ${total} samples`);
console.log('\nby package / area:');
for (const [k, c] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${pct(c)}  ${k}`);
console.log('\nby function (self):');
for (const [k, c] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(c)}  ${k}`);
