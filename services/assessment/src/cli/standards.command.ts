// `npm run standards -- import <file|url>` (`checkpoint standards import …` in the image): the
// operator imports a platform framework, a CASE 1.0/1.1 CFPackage that every tenant (individual
// accounts included) can search and align to (docs/adr/012-standards.md). The same use case and
// checks as a district admin's import, with no tenant; a URL is fetched under the same egress
// rules. Database as make-admin: DATABASE_URL, or else the embedded Postgres of DATA_DIR.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import {
  AppError,
  ConfigError,
  createPool,
  embeddedDatabaseUrl,
  operatorDatabaseShape,
  parseConfig,
  type CommandOutput,
} from '@checkpoint/service-kit';
import { assessmentConfigSchema } from '../config.ts';
import { standardsRepository } from '../data-access/standards.repository.ts';
import { standardsLimits, standardsUseCases, type ImportOutcome } from '../domain/standards.use-case.ts';

export const USAGE = `Usage: npm run standards -- import <file.json | https://<provider>/ims/case/v1p0/CFPackages/<id>>
  Imports a CASE 1.0/1.1 CFPackage as a platform framework (seen by every district and individual
  account); importing the same CFDocument again updates it (items by identifier, missing ones withdrawn).`;

export const standardsCommandConfigSchema = z.object({
  ...operatorDatabaseShape('assessment'),
  STANDARDS_PACKAGE_LIMIT_BYTES: assessmentConfigSchema.shape.STANDARDS_PACKAGE_LIMIT_BYTES,
  STANDARDS_FETCH_TIMEOUT_MS: assessmentConfigSchema.shape.STANDARDS_FETCH_TIMEOUT_MS,
  STANDARDS_FETCH_ALLOW_LOOPBACK: assessmentConfigSchema.shape.STANDARDS_FETCH_ALLOW_LOOPBACK,
});

const isUrl = (source: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(source);

/** A refusal as the operator reads it: the message and each field named. */
function explain(err: AppError): string {
  const fields = Object.entries(err.fields ?? {}).map(([field, why]) => `\n  ${field}: ${why}`);
  return `${err.message}${fields.join('')}`;
}

export async function runStandardsCommand(
  args: string[],
  env: Record<string, string | undefined>,
  out: CommandOutput = { log: (l) => console.log(l), error: (l) => console.error(l) },
): Promise<number> {
  if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) {
    out.log(USAGE);
    return 0;
  }
  const [verb, source] = args;
  if (args.length === 2 && verb === 'import' && (source === '--help' || source === '-h')) {
    out.log(USAGE);
    return 0;
  }
  if (args.length !== 2 || verb !== 'import' || !source) {
    out.error(USAGE);
    return 1;
  }
  let config: z.infer<typeof standardsCommandConfigSchema>;
  try {
    config = parseConfig(standardsCommandConfigSchema, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    out.error(`standards: ${err.message}`);
    return 1;
  }
  const uc = (pool: Parameters<typeof standardsRepository>[0]) =>
    standardsUseCases(standardsRepository(pool), standardsLimits(config));
  let bytes: Buffer | undefined;
  if (!isUrl(source)) {
    try {
      const size = (await stat(source)).size;
      if (size > config.STANDARDS_PACKAGE_LIMIT_BYTES) {
        out.error(
          `standards: ${source} is larger than ${config.STANDARDS_PACKAGE_LIMIT_BYTES} bytes (STANDARDS_PACKAGE_LIMIT_BYTES).`,
        );
        return 1;
      }
      bytes = await readFile(source);
    } catch (err) {
      out.error(`standards: cannot read ${source}: ${(err as Error).message}`);
      return 1;
    }
  }
  const url = config.DATABASE_URL ?? (await embeddedDatabaseUrl(path.resolve(config.DATA_DIR)));
  if (!url) {
    out.error(`standards: no running Checkpoint database in ${config.DATA_DIR}/, and DATABASE_URL is not set.`);
    return 1;
  }
  const pool = createPool({ url, schema: config.DATABASE_SCHEMA, max: 2, applicationName: 'standards-import' });
  try {
    const platform = { tenantId: null, userId: null };
    const done: ImportOutcome = bytes
      ? await uc(pool).importFromBytes(platform, bytes, source)
      : await uc(pool).importFromUrl(platform, source, source);
    const { framework: f, counts: c } = done;
    out.log(
      `${done.created ? 'Imported' : 'Updated'} platform framework "${f.title}" (${f.id}, CFDocument ${f.documentIdentifier}): ` +
        `${c.added} added, ${c.updated} updated, ${c.unchanged} unchanged, ${c.withdrawn} withdrawn; ${f.itemCount} items offered.`,
    );
    return 0;
  } catch (err) {
    out.error(
      `standards: ${err instanceof AppError ? explain(err) : err instanceof Error ? err.message : String(err)}`,
    );
    return 1;
  } finally {
    await pool.end().catch(() => {});
  }
}
