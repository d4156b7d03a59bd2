// Preloaded into the stack's processes by run.mjs when BENCH_PROFILE_DIR is set (NODE_OPTIONS does
// not allow --cpu-prof): CPU-profiles the services and the gateway (or the all-in-one), written on exit as
// <name>.<pid>.cpuprofile (open in Chrome DevTools, or summarise with bench/profile-top.mjs).
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const main = process.argv[1] ?? '';
const name =
  /services\/(\w+)\/src\/main\.ts$/.exec(main)?.[1] ??
  (/gateway\/src\/main\.ts$/.test(main) ? 'gateway' : /scripts\/start\.mjs$/.test(main) ? 'all-in-one' : undefined);
const dir = process.env.BENCH_PROFILE_DIR;
if (name && dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  session.post('Profiler.start');
  process.once('exit', () => {
    session.post('Profiler.stop', (err, result) => {
      if (!err) writeFileSync(path.join(dir, `${name}.${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
