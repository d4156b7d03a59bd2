// The standards catalogue on real Postgres (docs/adr/012-standards.md): a CASE package's round trip
// (import, re-import with changes, withdrawal and return), every refusal of a bad package (nothing
// half imported), the type-ahead search with its filters, tenant isolation, URL imports under the
// egress rules, and a district's deletion taking its frameworks.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { TenantDeletedSchema } from '@checkpoint/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { casePackage, RATIOS, type TestPackage } from './case-packages.ts';
import { actor, call, deliver, startAssessmentService, type Harness } from './helpers.ts';

let h: Harness;
let strict: Harness;
let provider: http.Server;
let providerUrl: string;
const served = new Map<string, string>();

const districtA = randomUUID();
const districtB = randomUUID();
const adminA = actor('admin', districtA);
const teacherA = actor('teacher', districtA);
const studentA = actor('student', districtA);
const adminB = actor('admin', districtB);
const teacherB = actor('teacher', districtB);

const LIMIT = 200_000;

beforeAll(async () => {
  // One after the other: each provisions the same database role, and two at once may collide
  // ("tuple concurrently updated").
  h = await startAssessmentService({
    STANDARDS_FETCH_ALLOW_LOOPBACK: 'true',
    STANDARDS_PACKAGE_LIMIT_BYTES: String(LIMIT),
  });
  strict = await startAssessmentService();
  // A CASE provider on this machine: /ims/case/v1p0/CFPackages/<id>.
  provider = http.createServer((req, res) => {
    const body = served.get(req.url ?? '');
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
});
afterAll(async () => {
  if (provider) await new Promise<void>((resolve) => provider.close(() => resolve()));
  await Promise.all([h?.stop(), strict?.stop()]);
});

const importAs = (who = adminA, body: unknown, harness = h) =>
  call(harness, who, 'POST', '/api/standards/frameworks', body);
const search = (who: typeof teacherA, query: string) => call(h, who, 'GET', `/api/standards/search?${query}`);
const itemRows = (frameworkId: string) =>
  h.sql
    .query<{ identifier: string; code: string; statement: string; withdrawn: boolean }>(
      `select identifier, code, statement, withdrawn_at is not null as withdrawn from standard_items
        where framework_id = $1 order by code`,
      [frameworkId],
    )
    .then((r) => r.rows);

describe('importing a CASE package', () => {
  it('when a district admin imports a package, then 201 with the framework and every item added', async () => {
    const pkg = casePackage({});
    const res = await importAs(adminA, pkg);
    expect(res.status).toBe(201);
    expect(res.body.counts).toEqual({ added: 5, updated: 0, unchanged: 0, withdrawn: 0 });
    expect(res.body.framework).toMatchObject({
      title: 'State Mathematics Standards',
      documentIdentifier: pkg.CFDocument.identifier,
      creator: 'State Department of Education',
      version: '2026',
      subjects: ['Mathematics'],
      itemCount: 5,
      scope: 'district',
    });
    const rows = await itemRows(res.body.framework.id);
    expect(rows.map((r) => r.code)).toEqual(['6.NS.A.1', '6.RP.A.1', '6.RP.A.2', '6.RP.A.3', '7.RP.A.1']);
  });

  it('when the same package is imported again with a changed statement, an added and a removed item, then 200 counts each and the removed one is withdrawn, not deleted', async () => {
    const pkg = casePackage({});
    const first = await importAs(adminA, pkg);
    expect(first.status).toBe(201);
    const id = first.body.framework.id as string;
    const [changed, removed] = [pkg.CFItems[0]!, pkg.CFItems[4]!];
    const next: TestPackage = {
      ...pkg,
      CFItems: [
        { ...changed, fullStatement: `${changed.fullStatement} (revised 2027)` },
        ...pkg.CFItems.slice(1, 4),
        {
          ...pkg.CFItems[1]!,
          identifier: randomUUID(),
          humanCodingScheme: '6.RP.A.3.a',
          fullStatement: 'Make tables of equivalent ratios relating quantities with whole-number measurements.',
        },
      ],
      CFAssociations: pkg.CFAssociations.slice(0, 4),
    };
    const again = await importAs(adminA, next);
    expect(again.status).toBe(200);
    expect(again.body.framework.id).toBe(id);
    expect(again.body.counts).toEqual({ added: 1, updated: 1, unchanged: 3, withdrawn: 1 });
    expect(again.body.framework.itemCount).toBe(5);
    const rows = await itemRows(id);
    expect(rows).toHaveLength(6);
    expect(rows.find((r) => r.identifier === removed.identifier)?.withdrawn).toBe(true);
    expect(rows.find((r) => r.identifier === changed.identifier)?.statement).toMatch(/revised 2027/);
    // Withdrawn items are not offered.
    const found = await search(teacherA, `q=7.RP&frameworkId=${id}`);
    expect(found.body).toEqual([]);

    // Back in a later package: restored (counted as updated), and offered again.
    const back = await importAs(adminA, pkg);
    expect(back.body.counts).toEqual({ added: 0, updated: 2, unchanged: 3, withdrawn: 1 });
    expect((await itemRows(id)).filter((r) => r.withdrawn).map((r) => r.code)).toEqual(['6.RP.A.3.a']);
    expect((await search(teacherA, `q=7.RP&frameworkId=${id}`)).body).toHaveLength(1);

    // The same package once more changes nothing.
    const same = await importAs(adminA, pkg);
    expect(same.body.counts).toEqual({ added: 0, updated: 0, unchanged: 5, withdrawn: 0 });
  });

  it('when another district imports the same CFDocument, then it gets a framework of its own', async () => {
    const pkg = casePackage({});
    const a = await importAs(adminA, pkg);
    const b = await importAs(adminB, pkg);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.framework.id).not.toBe(b.body.framework.id);
  });

  it('when a package is above the service’s general body limit (100 KB) but within STANDARDS_PACKAGE_LIMIT_BYTES, then it is imported', async () => {
    const pkg = casePackage({
      items: Array.from({ length: 140 }, (_, i) => ({
        identifier: randomUUID(),
        humanCodingScheme: `6.EE.B.${i}`,
        fullStatement:
          'Use variables to represent numbers and write expressions when solving a real-world problem. '.repeat(2),
        educationLevel: ['06'],
      })),
    });
    const size = JSON.stringify(pkg).length;
    expect(size).toBeGreaterThan(100 * 1024);
    expect(size).toBeLessThan(LIMIT);
    const res = await importAs(adminA, pkg);
    expect(res.status).toBe(201);
    expect(res.body.counts.added).toBe(140);
  });

  it('when a teacher or a student imports, then 403', async () => {
    expect((await importAs(teacherA, casePackage({}))).status).toBe(403);
    expect((await importAs(studentA, casePackage({}))).status).toBe(403);
  });
});

describe('refusing a bad package', () => {
  const cases: [string, (p: TestPackage) => unknown, string][] = [
    [
      'an item without identifier',
      (p) => (delete (p.CFItems[3] as Partial<(typeof p.CFItems)[0]>).identifier, p),
      'CFItems.3.identifier',
    ],
    [
      'an item without humanCodingScheme',
      (p) => (delete (p.CFItems[3] as Partial<(typeof p.CFItems)[0]>).humanCodingScheme, p),
      'CFItems.3.humanCodingScheme',
    ],
    ['an item with a blank code', (p) => ((p.CFItems[2]!.humanCodingScheme = '  '), p), 'CFItems.2.humanCodingScheme'],
    [
      'an item without a statement',
      (p) => (delete (p.CFItems[1] as Partial<(typeof p.CFItems)[0]>).fullStatement, p),
      'CFItems.1.fullStatement',
    ],
    [
      'two items with one identifier',
      (p) => ((p.CFItems[4]!.identifier = p.CFItems[1]!.identifier), p),
      'CFItems.4.identifier',
    ],
    [
      'an association to an item not in the package',
      (p) => ((p.CFAssociations[2]!.destinationNodeURI.identifier = randomUUID()), p),
      'CFAssociations.2.destinationNodeURI.identifier',
    ],
    [
      'an association from an item not in the package',
      (p) => ((p.CFAssociations[0]!.originNodeURI.identifier = randomUUID()), p),
      'CFAssociations.0.originNodeURI.identifier',
    ],
    ['no CFDocument', (p) => ({ CFItems: p.CFItems }), 'CFDocument'],
    ['no CFItems', (p) => ({ CFDocument: p.CFDocument }), 'CFItems'],
    [
      'a CFDocument without title',
      (p) => (delete (p.CFDocument as Partial<typeof p.CFDocument>).title, p),
      'CFDocument.title',
    ],
    ['a package and a url', (p) => ({ ...p, url: 'https://case.example.org/x' }), 'url'],
  ];
  for (const [what, spoil, field] of cases) {
    it(`when the package has ${what}, then 400 names ${field} and nothing is imported`, async () => {
      const pkg = casePackage({});
      const res = await importAs(adminA, spoil(structuredClone(pkg)));
      expect(res.status).toBe(400);
      expect(res.body.fields).toHaveProperty([field]);
      const { rows } = await h.sql.query('select 1 from standard_frameworks where document_identifier = $1', [
        pkg.CFDocument.identifier,
      ]);
      expect(rows).toHaveLength(0);
    });
  }

  it('when a re-import is refused, then the framework stays as it was', async () => {
    const pkg = casePackage({});
    const first = await importAs(adminA, pkg);
    const bad = structuredClone(pkg);
    bad.CFItems[0]!.fullStatement = 'Changed';
    bad.CFItems[4]!.humanCodingScheme = '';
    expect((await importAs(adminA, bad)).status).toBe(400);
    const rows = await itemRows(first.body.framework.id);
    expect(rows.every((r) => r.statement !== 'Changed' && !r.withdrawn)).toBe(true);
  });

  it('when the package is larger than STANDARDS_PACKAGE_LIMIT_BYTES, then 413 and nothing is imported', async () => {
    const pkg = casePackage({
      items: Array.from({ length: 400 }, (_, i) => ({
        identifier: randomUUID(),
        humanCodingScheme: `6.RP.Z.${i}`,
        fullStatement: 'Use ratio reasoning to convert measurement units; manipulate and transform units. '.repeat(6),
        educationLevel: ['06'],
      })),
    });
    expect(JSON.stringify(pkg).length).toBeGreaterThan(LIMIT);
    const res = await importAs(adminA, pkg);
    expect(res.status).toBe(413);
    const { rows } = await h.sql.query('select 1 from standard_frameworks where document_identifier = $1', [
      pkg.CFDocument.identifier,
    ]);
    expect(rows).toHaveLength(0);
  });
});

describe('importing from a CASE provider URL', () => {
  it('when the URL names a package at the provider, then it is fetched and imported', async () => {
    const pkg = casePackage({ title: 'Fetched Framework' });
    served.set(`/ims/case/v1p0/CFPackages/${pkg.CFDocument.identifier}`, JSON.stringify(pkg));
    const res = await importAs(adminA, { url: `${providerUrl}/ims/case/v1p0/CFPackages/${pkg.CFDocument.identifier}` });
    expect(res.status).toBe(201);
    expect(res.body.framework.title).toBe('Fetched Framework');
    expect(res.body.counts.added).toBe(5);
  });

  it('when the fetched package is bad, then 400 names the item', async () => {
    const pkg = casePackage({});
    delete (pkg.CFItems[2] as Partial<(typeof pkg.CFItems)[0]>).humanCodingScheme;
    served.set('/bad', JSON.stringify(pkg));
    const res = await importAs(adminA, { url: `${providerUrl}/bad` });
    expect(res.status).toBe(400);
    expect(res.body.fields).toHaveProperty(['CFItems.2.humanCodingScheme']);
  });

  it('when the URL is not found or not JSON, then 400 names url', async () => {
    served.set('/html', '<html>not a package</html>');
    for (const path of ['/missing', '/html']) {
      const res = await importAs(adminA, { url: `${providerUrl}${path}` });
      expect(res.status, path).toBe(400);
      expect(res.body.fields).toHaveProperty('url');
    }
  });

  it('when loopback is not allowed (the default), then a URL on this machine or a private network is refused with 400 naming url', async () => {
    const pkg = casePackage({});
    served.set('/pkg', JSON.stringify(pkg));
    for (const url of [`${providerUrl}/pkg`, 'https://127.0.0.1/pkg', 'https://10.0.0.8/pkg', 'https://[::1]/pkg']) {
      const res = await importAs(adminA, { url }, strict);
      expect(res.status, url).toBe(400);
      expect(res.body.fields).toHaveProperty('url');
    }
  });
});

describe('searching the catalogue', () => {
  let frameworkA: string;
  let frameworkB: string;
  let platform: string;

  beforeAll(async () => {
    frameworkA = (await importAs(adminA, casePackage({ title: 'District A Math' }))).body.framework.id;
    frameworkB = (await importAs(adminB, casePackage({ title: 'District B Math' }))).body.framework.id;
    // A platform framework (imported by the operator's CLI: no tenant), of another subject.
    const science = casePackage({
      title: 'Platform Science',
      subject: ['Science'],
      items: [
        {
          identifier: randomUUID(),
          humanCodingScheme: 'MS-PS1-1',
          fullStatement:
            'Develop models to describe the atomic composition of simple molecules and extended structures.',
          educationLevel: ['06', '07', '08'],
        },
        {
          identifier: randomUUID(),
          humanCodingScheme: '6.SCI.RATE',
          fullStatement: 'Use ratio reasoning to describe the rate of a chemical reaction.',
          educationLevel: ['06'],
        },
      ],
    });
    platform = randomUUID();
    await h.sql.query(
      `insert into standard_frameworks (id, tenant_id, document_identifier, title, subjects, item_count)
       values ($1, null, $2, 'Platform Science', '{Science}', 2)`,
      [platform, science.CFDocument.identifier],
    );
    for (const item of science.CFItems)
      await h.sql.query(
        `insert into standard_items (id, framework_id, tenant_id, identifier, code, statement, education_levels)
         values ($1, $2, null, $3, $4, $5, $6)`,
        [randomUUID(), platform, item.identifier, item.humanCodingScheme, item.fullStatement, item.educationLevel],
      );
  });

  it('when a teacher types a code prefix in any case, then the items whose code starts with it come first, by code', async () => {
    const res = await search(teacherA, `q=6.rp.a&frameworkId=${frameworkA}`);
    expect(res.status).toBe(200);
    expect(res.body.map((i: { code: string }) => i.code)).toEqual(['6.RP.A.1', '6.RP.A.2', '6.RP.A.3']);
    expect(res.body[0]).toEqual({
      identifier: expect.any(String),
      code: '6.RP.A.1',
      statement: RATIOS[0]!.statement,
      uri: expect.stringMatching(/^https:\/\/case\.example\.org\/ims\/case\/v1p0\/CFItems\//),
      frameworkId: frameworkA,
      frameworkTitle: 'District A Math',
      educationLevels: ['06'],
    });
  });

  it('when a teacher types words, then items whose statements hold them are found, best ranked first', async () => {
    const res = await search(teacherA, `q=${encodeURIComponent('unit rates')}&frameworkId=${frameworkA}`);
    // 6.RP.A.2 speaks of a unit rate and of rates three times: ranked above 7.RP.A.1's one mention.
    expect(res.body.map((i: { code: string }) => i.code)).toEqual(['6.RP.A.2', '7.RP.A.1']);
    const division = await search(
      teacherA,
      `q=${encodeURIComponent('division of fractions')}&frameworkId=${frameworkA}`,
    );
    expect(division.body.map((i: { code: string }) => i.code)).toEqual(['6.NS.A.1']);
  });

  it('when a grade or subject filter is given, then only items of that grade or subject are found', async () => {
    const grade7 = await search(teacherA, `q=ratio&grade=7&frameworkId=${frameworkA}`);
    expect(grade7.body.map((i: { code: string }) => i.code)).toEqual(['7.RP.A.1']);
    const science = await search(teacherA, 'q=ratio&subject=science');
    expect(science.body.map((i: { code: string }) => i.code)).toEqual(['6.SCI.RATE']);
    const math = await search(teacherA, 'q=ratio&subject=Mathematics&grade=06&limit=50');
    expect(math.body.length).toBeGreaterThan(0);
    expect(math.body.every((i: { frameworkId: string }) => i.frameworkId !== platform)).toBe(true);
  });

  it('when q is empty, then the framework’s items are listed by code', async () => {
    const res = await search(teacherA, `frameworkId=${frameworkA}`);
    expect(res.body.map((i: { code: string }) => i.code)).toEqual([
      '6.NS.A.1',
      '6.RP.A.1',
      '6.RP.A.2',
      '6.RP.A.3',
      '7.RP.A.1',
    ]);
  });

  it('when a district searches, then it sees its own and the platform frameworks, never another district’s', async () => {
    const a = await search(teacherA, 'q=ratio&limit=50');
    const ids = new Set(a.body.map((i: { frameworkId: string }) => i.frameworkId));
    expect(ids.has(frameworkA)).toBe(true);
    expect(ids.has(platform)).toBe(true);
    expect(ids.has(frameworkB)).toBe(false);
    const other = await search(teacherB, `q=6.RP&frameworkId=${frameworkA}`);
    expect(other.body).toEqual([]);
    const list = await call(h, teacherB, 'GET', '/api/standards/frameworks');
    expect(list.status).toBe(200);
    const listed = list.body.map((f: { id: string }) => f.id);
    expect(listed).toContain(frameworkB);
    expect(listed).toContain(platform);
    expect(listed).not.toContain(frameworkA);
    expect(list.body.find((f: { id: string }) => f.id === platform).scope).toBe('platform');
  });

  it('when a student lists or searches, then 403; a limit above 50 or a bad frameworkId is 400 naming it', async () => {
    expect((await call(h, studentA, 'GET', '/api/standards/frameworks')).status).toBe(403);
    expect((await search(studentA, 'q=ratio')).status).toBe(403);
    const tooMany = await search(teacherA, 'q=ratio&limit=51');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.fields).toHaveProperty('limit');
    const bad = await search(teacherA, 'frameworkId=nope');
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toHaveProperty('frameworkId');
  });

  it('when q holds LIKE wildcards or only stop words, then they match literally or nothing, never fail', async () => {
    expect((await search(teacherA, `q=${encodeURIComponent('%_')}&frameworkId=${frameworkA}`)).body).toEqual([]);
    const stop = await search(teacherA, `q=${encodeURIComponent('the and')}&frameworkId=${frameworkA}`);
    expect(stop.status).toBe(200);
    expect(stop.body).toEqual([]);
  });
});

describe('deleting a district', () => {
  it('when TenantDeleted arrives, then its frameworks and items go; the platform and other districts keep theirs', async () => {
    const district = randomUUID();
    const admin = actor('admin', district);
    const mine = (await importAs(admin, casePackage({}))).body.framework.id as string;
    const kept = (await importAs(adminB, casePackage({}))).body.framework.id as string;
    await deliver(
      h,
      TenantDeletedSchema,
      { tenantId: district, requestId: randomUUID(), userIds: [admin.userId] },
      {
        key: district,
        tenantId: district,
        source: 'identity',
      },
    );
    const left = await h.sql.query<{ id: string }>(
      'select framework_id::text as id from standard_items where framework_id = any($1::uuid[]) group by framework_id',
      [[mine, kept]],
    );
    expect(left.rows.map((r) => r.id)).toEqual([kept]);
    const frameworks = await h.sql.query('select 1 from standard_frameworks where id = $1', [mine]);
    expect(frameworks.rows).toHaveLength(0);
  });
});
