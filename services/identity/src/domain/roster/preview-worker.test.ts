// The roster preview's worker thread (preview-worker.ts): the same result as planning on this
// thread, a package error answered as 400, and a bounded number of previews per process.
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { AppError, type Logger } from '@checkpoint/service-kit';
import type { ExistingState } from './plan.ts';
import { PREVIEW_QUEUE, PREVIEW_WORKERS, previewWorkers } from './preview-worker.ts';
import { planAndSerialise, readUpload } from './preview.ts';

const TENANT = '11111111-1111-4111-8111-111111111111';
const CALLER = '33333333-3333-4333-8333-333333333333';
const logger = { error: () => {} } as unknown as Logger;
const workers = () => previewWorkers({ uploadLimitBytes: 10_000_000, memoryMb: 256, logger });
const emptyState = (): ExistingState => ({
  tenantId: TENANT,
  mapped: new Map(),
  byEmail: new Map(),
  classes: new Map(),
  activeAdminIds: new Set([CALLER]),
});

function zip(): Uint8Array {
  const manifest = [
    'propertyName,value',
    'manifest.version,1.0',
    'oneroster.version,1.2',
    ...['users', 'roles', 'classes', 'enrollments'].map((f) => `file.${f},bulk`),
  ];
  const users = ['sourcedId,status,dateLastModified,enabledUser,username,userIds,givenName,familyName,email,password'];
  const roles = ['sourcedId,status,dateLastModified,userSourcedId,roleType,role,orgSourcedId'];
  const enrollments = ['sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,primary'];
  users.push('t1,,,true,t1,,Tina,Teach,tina@example.org,');
  roles.push('rt1,,,t1,primary,teacher,org1');
  enrollments.push('et1,,,c1,org1,t1,teacher,true');
  for (let i = 0; i < 50; i++) {
    users.push(`s${i},,,true,s${i},,Stu${i},Dent,${i % 5 === 0 ? '' : `s${i}@example.org`},`);
    roles.push(`rs${i},,,s${i},primary,student,org1`);
    enrollments.push(`e${i},,,c1,org1,s${i},student,false`);
  }
  // Two error rows: a user without a name, an enrollment of a user the file does not have.
  users.push('bad,,,true,bad,,,Nameless,bad@example.org,');
  enrollments.push('eghost,,,c1,org1,ghost,student,false');
  const classes = [
    'sourcedId,status,dateLastModified,title,courseSourcedId,schoolSourcedId,subjects,periods',
    'c1,,,Algebra,course1,org1,Math,1',
  ];
  const csv = (lines: string[]) => strToU8(`${lines.join('\r\n')}\r\n`);
  return zipSync({
    'manifest.csv': csv(manifest),
    'users.csv': csv(users),
    'roles.csv': csv(roles),
    'classes.csv': csv(classes),
    'enrollments.csv': csv(enrollments),
  });
}

/** The plan with the ids of new accounts (random) numbered in order of appearance. */
function stableIds(planJson: string): unknown {
  const ids = new Map<string, string>();
  const plan = JSON.parse(planJson) as {
    users: { userId: string }[];
    classes: { teacherUserIds: string[]; studentUserIds: string[] }[];
  };
  const rename = (id: string) => ids.get(id) ?? ids.set(id, `user-${ids.size}`).get(id)!;
  return {
    users: plan.users.map((u) => ({ ...u, userId: rename(u.userId) })),
    classes: plan.classes.map((c) => ({
      ...c,
      teacherUserIds: c.teacherUserIds.map(rename),
      studentUserIds: c.studentUserIds.map(rename),
    })),
  };
}

describe('roster preview worker', () => {
  it('when a package is previewed in the worker, then the plan, counts and error rows are those planned on this thread', async () => {
    const bytes = zip();
    let emails: string[] = [];
    const inWorker = await workers().preview({
      upload: { bytes },
      tenantId: TENANT,
      callerId: CALLER,
      loadState: async (asked) => {
        emails = asked;
        return emptyState();
      },
    });
    const here = planAndSerialise(await readUpload({ bytes }, 10_000_000), emptyState(), CALLER);
    expect(emails).toHaveLength(51); // the valid users: one teacher, 50 students
    expect(inWorker.counts).toEqual(here.counts);
    expect(inWorker.errorCount).toBe(2);
    expect(inWorker.firstErrors).toEqual(here.firstErrors);
    expect(inWorker.errorChunks.map((c) => JSON.parse(c))).toEqual(here.errorChunks.map((c) => JSON.parse(c)));
    expect(inWorker.changes).toBe(here.changes);
    expect(stableIds(inWorker.planJson)).toEqual(stableIds(here.planJson));
  }, 60_000);

  it('when the package cannot be read, then the worker’s refusal is a 400 naming the file', async () => {
    const bad = zipSync({ 'manifest.csv': strToU8('propertyName,value\noneroster.version,1.0\n') });
    const refused = await workers()
      .preview({ upload: { bytes: bad }, tenantId: TENANT, callerId: CALLER, loadState: async () => emptyState() })
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      status: 400,
      code: 'invalid_roster',
      fields: { file: expect.stringMatching(/1.0/) },
    });
  }, 60_000);

  it('when more previews are asked than may run and wait, then the next is refused (429) until one ends', async () => {
    const pool = workers();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const reads: string[][] = [];
    const input = {
      upload: { bytes: zip() },
      tenantId: TENANT,
      callerId: CALLER,
      loadState: async (emails: string[]) => {
        reads.push(emails);
        await held;
        return emptyState();
      },
    };
    const admitted = Array.from({ length: PREVIEW_WORKERS + PREVIEW_QUEUE }, () => pool.preview(input));
    await expect(pool.preview(input)).rejects.toMatchObject({ status: 429, code: 'roster_previews_busy' });
    while (reads.length < PREVIEW_WORKERS) await new Promise((r) => setTimeout(r, 20));
    release();
    const done = await Promise.all(admitted);
    expect(done.map((d) => d.errorCount)).toEqual(admitted.map(() => 2));
    expect(reads).toHaveLength(PREVIEW_WORKERS + PREVIEW_QUEUE);
  }, 120_000);
});
