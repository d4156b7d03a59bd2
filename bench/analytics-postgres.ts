// The analytics benchmark's Postgres (bench/analytics.mjs): the embedded server of the testkit (the
// one stack mode uses, same settings) with its data in ANALYTICS_PG_DIR, and the analytics
// service's role and schema provisioned as stack mode does. Prints `ADMIN_URL=…` and
// `SERVICE_URL=…` when ready; the server's own log (with auto_explain plans, when the runner turns
// them on) goes to stderr. Stops the server on SIGTERM/SIGINT.
// Usage: ANALYTICS_PG_DIR=/tmp/x node --import tsx bench/analytics-postgres.ts
import { provisionServiceDatabase } from '@checkpoint/service-kit';
import { launchEmbeddedPostgres } from '@checkpoint/testkit';

const dataDir = process.env.ANALYTICS_PG_DIR;
if (!dataDir) throw new Error('ANALYTICS_PG_DIR is required');
const handle = await launchEmbeddedPostgres({
  dataDir,
  // Kept between runs when the runner is given a data dir to reuse (ANALYTICS_DATA_DIR).
  persistent: true,
  onLog: (message) => process.stderr.write(`${String(message).trimEnd()}\n`),
});
const serviceUrl = await provisionServiceDatabase(handle.url, 'analytics');
console.log(`ADMIN_URL=${handle.url}`);
console.log(`SERVICE_URL=${serviceUrl}`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await handle.stop().catch((err: unknown) => console.error(`postgres stop: ${String(err)}`));
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setInterval(() => {}, 60_000); // stay up until stopped
