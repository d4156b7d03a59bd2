// SECRETS_KEY of the run modes (`npm start`, `npm run stack`) and of the operator commands: kept
// in DATA_DIR/secrets-key (created once, readable by the owner only), so that secrets sealed in
// one run open in the next. An operator who sets SECRETS_KEY uses theirs instead.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeSecretsKey } from '../domain/secret-box.ts';

export const SECRETS_KEY_FILE = 'secrets-key';

/** The key kept in `dataDir` (created if absent), base64. */
export async function dataDirSecretsKey(dataDir: string, create = true): Promise<string | undefined> {
  const file = path.join(dataDir, SECRETS_KEY_FILE);
  const existing = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (existing !== undefined) {
    if (!decodeSecretsKey(existing)) throw new Error(`${file} does not hold a 32-byte base64 key`);
    return existing.trim();
  }
  if (!create) return undefined;
  await mkdir(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64');
  // wx: two processes starting at once do not overwrite each other's key.
  try {
    await writeFile(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return dataDirSecretsKey(dataDir, false);
    throw err;
  }
}
