// The demo district a newcomer signs into after `npm start`: names known to every service (the
// demo accounts are made while the services start) and a class with results, made once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ASSESSMENT_TITLE, DEMO_CLASS, seedDemoData } from '../../app/src/demo-data.ts';
import { Client, eventually, startBackend, type Backend, type MemberJson } from './helpers.ts';

const DEMO_PASSWORD = 'demo-data-password';
let backend: Backend;

async function signIn(email: string): Promise<Client> {
  const c = new Client(backend.url);
  const res = await c.post('/api/auth/simple-login', { email, password: DEMO_PASSWORD });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  c.user = res.body.user;
  return c;
}

beforeAll(async () => {
  backend = await startBackend({ DEMO_SEED: 'true', DEMO_PASSWORD });
}, 180_000);
afterAll(() => backend?.stop());

describe('demo district', () => {
  it('when the demo data is made on a fresh start, then the class, its names, the assigned assessment and four varied results are there, once', async () => {
    expect(await seedDemoData(backend.url, DEMO_PASSWORD)).toBe('created');

    const teacher = await signIn('teacher@demo.checkpoint.school');
    const classes = (await teacher.get('/api/classes')).body;
    expect(classes).toEqual([expect.objectContaining({ ...DEMO_CLASS, teacherName: 'Demo Teacher' })]);
    const cls = classes[0];
    const roster = (await teacher.get(`/api/classes/${cls.id}/students`)).body as MemberJson[];
    expect(roster.map((m) => `${m.student.firstName} ${m.student.lastName}`).sort()).toEqual([
      'Ava Lopez',
      'Ben Okafor',
      'Chloe Nguyen',
      'Demo Student',
    ]);

    const student = await signIn('student@demo.checkpoint.school');
    expect((await student.get('/api/student/classes')).body).toEqual([
      expect.objectContaining({ class: expect.objectContaining({ teacherName: 'Demo Teacher' }) }),
    ]);

    const assessments = (await teacher.get('/api/assessments')).body as { title: string; id: string }[];
    expect(assessments.map((a) => a.title)).toEqual([DEMO_ASSESSMENT_TITLE]);
    const questions = (await teacher.get(`/api/assessments/${assessments[0]!.id}/questions`)).body;
    expect(questions).toHaveLength(5);

    const results = await eventually(
      () => teacher.get(`/api/classes/${cls.id}/results`),
      (r) => r.status === 200 && r.body.length === 4,
    );
    const scores = Object.fromEntries(
      results.body.map((r: { student: { firstName: string }; score: number }) => [r.student.firstName, r.score]),
    );
    expect(scores).toEqual({ Demo: 80, Ava: 100, Ben: 60, Chloe: 40 });

    // A second start with the same password finds the class; one with another finds accounts it did not make.
    expect(await seedDemoData(backend.url, DEMO_PASSWORD)).toBe('already-there');
    expect(await seedDemoData(backend.url, 'another-password')).toBe('accounts-not-new');
    expect((await teacher.get('/api/classes')).body).toHaveLength(1);
  });
});
