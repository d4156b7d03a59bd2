// Generates code that is not committed: TypeScript from proto/ (buf + protoc-gen-es) and one
// Prisma client per service. `prisma generate` never runs the schema engine, but wants the path of
// one: any existing file will do (docs/adr/002-sql-migrations-with-prisma-client.md), so this is the only place that sets it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

run(process.execPath, ['scripts/generate-proto.mjs']);

const prisma = path.join(root, 'node_modules/prisma/build/index.js');
for (const service of readdirSync(path.join(root, 'services'))) {
  const schema = path.join('services', service, 'prisma/schema.prisma');
  if (!existsSync(path.join(root, schema))) continue;
  run(process.execPath, [prisma, 'generate', '--schema', schema], {
    PRISMA_SCHEMA_ENGINE_BINARY: process.execPath,
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
    CHECKPOINT_PRISMA_QUIET: '1',
  });
}
