// Read-after-create through the gateway: right after a class or an assessment is
// created, the services that learn of it from events answer as if they already knew it, with no
// retry by the client; an id that nobody created still answers 404.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '@checkpoint/service-kit';
import { services } from '../../app/src/compose.ts';
import { joinDistrict, signUp, startBackend, type Backend, type Client, type Reply } from './helpers.ts';

const HAS_GENERATION = services.some((s) => s.name === 'generation');
const ROUNDS = 20;
const CREATE = {
  title: 'Fractions check',
  contentToAssess:
    'Fractions name parts of a whole. The denominator tells how many equal parts the whole has. ' +
    'The numerator tells how many parts are taken. Equivalent fractions name the same amount. ' +
    'A unit fraction has a numerator of one. A mixed number has a whole number part and a fraction part. ' +
    'A number line shows where each fraction lies between zero and one.',
  questionType: 'multiple_choice',
  numberOfQuestions: 4,
  description: 'Quick check',
};

let backend: Backend;
let teacher: Client;

beforeAll(async () => {
  // The bound on one wait, short here so that the "never created" case stays quick.
  backend = await startBackend({ DEMO_SEED: 'true', READ_AFTER_CREATE_WAIT_MS: '2000' });
  // A district's teacher: no free-trial limit on classes.
  teacher = await joinDistrict(backend, 'teacher', { domain: 'demo.checkpoint.school' });
}, 120_000);

afterAll(async () => {
  await backend?.stop();
});

const show = (what: string, r: Reply) => `${what}: ${r.status} ${JSON.stringify(r.body)}`;

describe('read after create', () => {
  it('when a teacher creates a class and at once an assessment in it, its grid, results and assessments, then none answers 404', async () => {
    const misses: string[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const cls = await teacher.post('/api/classes', { name: `Round ${i}`, subject: 'Math', period: '1' });
      expect(cls.status, show('class', cls)).toBe(201);
      const id = cls.body.id as string;
      const [assessment, grid, results, list] = await Promise.all([
        teacher.post('/api/assessments', { ...CREATE, classId: id }),
        teacher.get(`/api/classes/${id}/grid`),
        teacher.get(`/api/classes/${id}/results`),
        teacher.get(`/api/classes/${id}/assessments`),
      ]);
      for (const [what, r, ok] of [
        ['POST /api/assessments', assessment, 201],
        ['grid', grid, 200],
        ['class results', results, 200],
        ['class assessments', list, 200],
      ] as const)
        if (r.status !== ok) misses.push(`round ${i} ${show(what, r)}`);
      if (grid.status === 200) expect(grid.body).toMatchObject({ classId: id, className: `Round ${i}` });
    }
    expect(misses).toEqual([]);
  }, 120_000);

  it('when a teacher creates an assessment, then at once its generation status, support material and results answer', async () => {
    const cls = await teacher.post('/api/classes', { name: 'Settled', subject: 'Math', period: '2' });
    expect(cls.status).toBe(201);
    const misses: string[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const a = await teacher.post('/api/assessments', { ...CREATE, title: `Check ${i}`, classId: cls.body.id });
      expect(a.status, show('assessment', a)).toBe(201);
      const id = a.body.id as string;
      const reads: [string, Promise<Reply>][] = [['results', teacher.get(`/api/assessments/${id}/results`)]];
      if (HAS_GENERATION)
        reads.push(
          ['generation', teacher.get(`/api/assessments/${id}/generation`)],
          ['support material', teacher.get(`/api/assessments/${id}/support-material/support`)],
        );
      for (const [what, p] of reads) {
        const r = await p;
        if (r.status !== 200) misses.push(`round ${i} ${show(what, r)}`);
      }
    }
    expect(misses).toEqual([]);
  }, 120_000);

  it('when an id was never created or is not yours, then it answers 404: at once when old, random or known here, after the bound when fresh', async () => {
    const timed = async (path: string) => {
      const start = Date.now();
      const r = await teacher.get(path);
      return { status: r.status, ms: Date.now() - start };
    };
    for (const id of [randomUUID(), uuidv7(Date.now() - 3_600_000)]) {
      for (const path of [`/api/classes/${id}/grid`, `/api/assessments/${id}/results`]) {
        const r = await timed(path);
        expect(r.status, path).toBe(404);
        expect(r.ms, path).toBeLessThan(1_000);
      }
    }
    // Someone else's class made a moment ago: not yours, at once (its copy is there).
    const outsider = await signUp(backend.url, 'teacher');
    const theirs = await teacher.post('/api/classes', { name: 'Not yours', subject: 'Math', period: '3' });
    expect(theirs.status).toBe(201);
    expect((await teacher.get(`/api/classes/${theirs.body.id}/grid`)).status).toBe(200);
    const start = Date.now();
    expect((await outsider.get(`/api/classes/${theirs.body.id}/grid`)).status).toBe(404);
    expect(Date.now() - start).toBeLessThan(1_000);
    const fresh = await timed(`/api/classes/${uuidv7()}/grid`);
    expect(fresh.status).toBe(404);
    expect(fresh.ms).toBeGreaterThanOrEqual(1_900);
    expect(fresh.ms).toBeLessThan(6_000);
  }, 30_000);
});
