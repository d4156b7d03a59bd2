// Prisma CLI configuration. Only `prisma generate` runs here (offline); migrations are the SQL
// files in ./migrations, applied by the service at start.
import path from 'node:path';
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: path.join(import.meta.dirname, 'prisma', 'schema.prisma'),
});
