// Generates TypeScript for the event contracts in proto/ into packages/events/src/gen (gitignored).
// Uses only node built-ins and the buf + protoc-gen-es binaries installed by npm.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'node_modules', '.bin');
const buf = join(bin, process.platform === 'win32' ? 'buf.cmd' : 'buf');

if (!existsSync(buf)) {
  console.error(`buf not found at ${buf}; run npm install first`);
  process.exit(1);
}

function run(args) {
  const result = spawnSync(buf, args, {
    cwd: join(root, 'proto'),
    stdio: 'inherit',
    // buf finds the protoc-gen-es plugin on PATH.
    env: { ...process.env, PATH: `${bin}${process.platform === 'win32' ? ';' : ':'}${process.env.PATH ?? ''}` },
  });
  if (result.error) throw result.error;
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run(['lint']);
run(['generate']);
console.log('proto: generated packages/events/src/gen');
