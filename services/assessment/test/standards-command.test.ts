// The operator's `standards import <file|url>` (services/assessment/src/cli/standards.command.ts)
// on a real database: a platform framework (no tenant) from a file, updated by a second import,
// seen by every tenant's search; a bad file refused with the item named and nothing imported; a
// URL under the egress rules.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runStandardsCommand } from '../src/cli/standards.command.ts';
import { casePackage } from './case-packages.ts';
import { actor, call, startAssessmentService, type Harness } from './helpers.ts';

let h: Harness;
let dir: string;

beforeAll(async () => {
  h = await startAssessmentService();
  dir = await mkdtemp(path.join(tmpdir(), 'standards-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await h?.stop();
});

async function run(args: string[], env: Record<string, string> = {}) {
  const lines: string[] = [];
  const errors: string[] = [];
  const code = await runStandardsCommand(
    args,
    { DATABASE_URL: h.serviceDbUrl, ...env },
    { log: (l) => lines.push(l), error: (l) => errors.push(l) },
  );
  return { code, out: lines.join('\n'), err: errors.join('\n') };
}

describe('standards import (operator CLI)', () => {
  it('when asked for --help, then it prints the usage and exits 0', async () => {
    const done = await run(['--help']);
    expect(done.code).toBe(0);
    expect(done.out).toMatch(/standards -- import/);
    expect((await run(['import', '--help'])).code).toBe(0);
    expect((await run([])).code).toBe(1);
  });

  it('when a package file is imported, then it is a platform framework every district finds; again, then it is updated', async () => {
    const pkg = casePackage({ title: 'Platform Mathematics' });
    const file = path.join(dir, 'math.json');
    await writeFile(file, JSON.stringify(pkg));
    const first = await run(['import', file]);
    expect(first.err).toBe('');
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/Imported platform framework "Platform Mathematics".*5 added/);
    const { rows } = await h.sql.query<{ tenant_id: string | null }>(
      'select tenant_id from standard_frameworks where document_identifier = $1',
      [pkg.CFDocument.identifier],
    );
    expect(rows).toEqual([{ tenant_id: null }]);
    for (const teacher of [actor('teacher'), actor('teacher')]) {
      const found = await call(h, teacher, 'GET', '/api/standards/search?q=6.RP.A.1');
      expect(found.body.map((i: { code: string }) => i.code)).toContain('6.RP.A.1');
    }

    await writeFile(file, JSON.stringify({ ...pkg, CFItems: pkg.CFItems.slice(0, 4), CFAssociations: [] }));
    const again = await run(['import', file]);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/Updated platform framework.*0 added, 0 updated, 4 unchanged, 1 withdrawn/);
  });

  it('when the file holds a bad package, then it exits 1 naming the item and nothing is imported', async () => {
    const pkg = casePackage({});
    delete (pkg.CFItems[1] as Partial<(typeof pkg.CFItems)[0]>).humanCodingScheme;
    const file = path.join(dir, 'bad.json');
    await writeFile(file, JSON.stringify(pkg));
    const done = await run(['import', file]);
    expect(done.code).toBe(1);
    expect(done.err).toMatch(/CFItems\.1\.humanCodingScheme/);
    const { rows } = await h.sql.query('select 1 from standard_frameworks where document_identifier = $1', [
      pkg.CFDocument.identifier,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('when the file is missing, not JSON or above the limit, then it exits 1 saying so', async () => {
    expect((await run(['import', path.join(dir, 'none.json')])).err).toMatch(/cannot read/);
    const notJson = path.join(dir, 'page.html');
    await writeFile(notJson, '<html></html>');
    expect((await run(['import', notJson])).err).toMatch(/not JSON/);
    const big = path.join(dir, 'big.json');
    await writeFile(big, JSON.stringify(casePackage({})));
    const limited = await run(['import', big], { STANDARDS_PACKAGE_LIMIT_BYTES: '1024' });
    expect(limited.code).toBe(1);
    expect(limited.err).toMatch(/larger than 1024 bytes/);
  });

  it('when the URL is on this machine and loopback is not allowed, then it is refused by the egress rules', async () => {
    const done = await run(['import', `http://127.0.0.1:9/ims/case/v1p0/CFPackages/${randomUUID()}`]);
    expect(done.code).toBe(1);
    expect(done.err).toMatch(/https/);
  });
});
