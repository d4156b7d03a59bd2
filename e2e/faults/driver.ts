// The fault test's clients: a cookie-keeping session through the gateway (CSRF header and Origin,
// as the web app sends them), the seed (a teacher, a class, assessments, students who joined) and
// the driver: students who save uniquely identified answers (POST /api/responses with a clientSeq
// that grows per question) and submit, retrying a failed call with the same clientSeq as the web
// app's answer store does, while the history records every try.
import { randomBytes } from 'node:crypto';
import { Client, signUp as signUpByMail, type Reply } from '../api/helpers.ts';
import type { Attempt, Outcome, SaveOp, SubmitOp } from './history.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A student or teacher signed in through the gateway (the API contract tests' client). */
export type Session = Client;

export interface SeededQuestion {
  id: string;
  options: string[];
  correctAnswer: string;
}

export interface Seed {
  teacher: Session;
  classId: string;
  tenantId: string;
  assessments: { id: string; questions: SeededQuestion[] }[];
  students: Session[];
}

const LESSON = [
  'Photosynthesis is the process plants use to make their own food from light.',
  'Chlorophyll is the green pigment that absorbs light energy inside the leaf.',
  'The chloroplast is the part of the cell where photosynthesis takes place.',
  'Plants take in carbon dioxide from the air through tiny pores called stomata.',
  'Water travels from the roots to the leaves through tubes called xylem.',
  'Glucose is the sugar that plants produce and store as energy.',
  'Oxygen is released into the air as a product of photosynthesis.',
  'Phloem carries the sugars made in the leaves to the rest of the plant.',
].join(' ');

function expectStatus(res: Reply, status: number, what: string): Reply['body'] {
  if (res.status !== status) throw new Error(`${what} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Calls fn until check passes, at most `ms`. */
async function until(what: string, fn: () => Promise<Reply>, check: (r: Reply) => boolean, ms: number): Promise<Reply> {
  const end = Date.now() + ms;
  for (let delay = 50; ; delay = Math.min(delay * 2, 1000)) {
    const reply = await fn();
    if (check(reply)) return reply;
    if (Date.now() > end)
      throw new Error(`timed out waiting for ${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
    await sleep(delay);
  }
}

async function pool<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}

/**
 * A new user through the mailed sign-up link (e2e/api/helpers.ts signUp: 202, then the link read
 * from the stack's mail catcher, which startFaultStack and startScaleStack register by baseUrl).
 */
function signUp(baseUrl: string, role: 'teacher' | 'student', domain: string): Promise<Session> {
  return signUpByMail(baseUrl, role, { domain, lastName: 'Faults', client: new Client(baseUrl, 30_000) });
}

/** Through the gateway, as the web app would: the teacher's class and assessments, students joined. */
export async function seed(
  baseUrl: string,
  options: { students: number; assessments: number; questions: number },
): Promise<Seed> {
  const run = randomBytes(4).toString('hex');
  const teacher = await signUp(baseUrl, 'teacher', `faults-${run}.example.com`);
  const cls = expectStatus(
    await teacher.post('/api/classes', { name: 'Faults', subject: 'Science', period: '1' }),
    201,
    'class creation',
  );
  const assessments: Seed['assessments'] = await Promise.all(
    Array.from({ length: options.assessments }, async (_, k) => {
      // The class reaches the assessment service through Kafka: 404 until it has.
      const created = await until(
        'the class to reach the assessment service',
        () =>
          teacher.post('/api/assessments', {
            title: `Faults ${k + 1}`,
            contentToAssess: LESSON,
            questionType: 'multiple_choice',
            numberOfQuestions: options.questions,
            description: 'Fault test',
            classId: cls.id,
          }),
        (r) => r.status !== 404,
        60_000,
      );
      const { id } = expectStatus(created, 201, 'assessment creation');
      const ready = await until(
        'question generation',
        () => teacher.get(`/api/assessments/${id}`),
        (r) => r.status === 200 && r.body.generationStatus !== 'generating',
        60_000,
      );
      if (ready.body.generationStatus !== 'ready') throw new Error(`generation ${ready.body.generationStatus}`);
      const questions = expectStatus(await teacher.get(`/api/assessments/${id}/questions`), 200, 'questions');
      expectStatus(await teacher.post(`/api/assessments/${id}/assign`), 200, 'assign');
      return {
        id,
        questions: questions.map((q: SeededQuestion) => ({
          id: q.id,
          options: q.options,
          correctAnswer: q.correctAnswer,
        })),
      };
    }),
  );
  const students = await pool(
    Array.from({ length: options.students }, (_, i) => i),
    8,
    async (i) => {
      const s = await signUp(baseUrl, 'student', `faults-${run}.example.com`);
      expectStatus(await s.post('/api/classes/join', { joinCode: cls.joinCode }), 200, `join of student ${i}`);
      return s;
    },
  );
  // Memberships reach the assessment service through Kafka: wait until every student sees every assessment.
  await pool(students, 5, (s) =>
    until(
      'the assessments to be available to a student',
      () => s.get('/api/student/available-assessments'),
      (r) => r.status === 200 && assessments.every(({ id }) => r.body.some((a: { id: string }) => a.id === id)),
      60_000,
    ),
  );
  return { teacher, classId: cls.id, tenantId: teacher.user!.tenantId, assessments, students };
}

export interface DriverFigures {
  /** Tries by answer: HTTP status, or `error` (no answer: refused connection, reset, timeout). */
  tries: Map<string, number>;
  /** Tries after the first of an operation. */
  retries: number;
}

export interface DriverOptions {
  /** The run's clock (ms since start), the one the history's attempts are stamped with. */
  now: () => number;
  /** True once no new operation may start. */
  stopped: () => boolean;
  /** When an operation still without an answer is given up (it stays `unknown`). */
  giveUpAt: () => number;
  /** Per student and assessment: how many times each question is answered before submitting. */
  rounds: [number, number];
  /** Pause between two saves of a student, ms. */
  thinkMs: [number, number];
  /** Share of final answers that are the right one (so that results spread over the levels). */
  correctRate: number;
}

const between = ([lo, hi]: [number, number]) => lo + Math.random() * (hi - lo);

/**
 * Runs every student until `stopped()`: for each assessment in turn, rounds of answering every
 * question (each save a new clientSeq and, but for a final right answer, a unique text), then
 * the submit. A try without a 2xx or 4xx answer is retried with the very same body (same
 * clientSeq), with backoff, until answered or given up.
 */
export async function drive(
  s: Seed,
  o: DriverOptions,
): Promise<{ saves: SaveOp[]; submits: SubmitOp[]; figures: DriverFigures }> {
  const saves: SaveOp[] = [];
  const submits: SubmitOp[] = [];
  const figures: DriverFigures = { tries: new Map(), retries: 0 };

  /** Sends until answered (2xx: acked, 4xx: refused) or given up (unknown). */
  const attempt = async (
    send: () => Promise<Reply>,
    attempts: Attempt[],
    on4xx: (reply: Reply) => Outcome = () => 'refused',
  ): Promise<{ outcome: Outcome; reply?: Reply }> => {
    for (let delay = 100; ; delay = Math.min(delay * 2, 2000)) {
      if (attempts.length > 0) figures.retries++;
      let reply: Reply | undefined;
      try {
        reply = await send();
        attempts.push({ at: o.now(), status: reply.status });
      } catch (error) {
        attempts.push({ at: o.now(), error: error instanceof Error ? error.message : String(error) });
      }
      const key = reply ? String(reply.status) : 'error';
      figures.tries.set(key, (figures.tries.get(key) ?? 0) + 1);
      if (reply && reply.status >= 200 && reply.status < 300) return { outcome: 'acked', reply };
      if (reply && reply.status >= 400 && reply.status < 500) return { outcome: on4xx(reply), reply };
      if (o.now() + delay > o.giveUpAt()) return { outcome: 'unknown' };
      await sleep(delay);
    }
  };

  await Promise.all(
    s.students.map(async (student, i) => {
      const studentId = student.user!.id;
      let seq = 0;
      await sleep(Math.random() * 1000);
      for (const [k, a] of s.assessments.entries()) {
        const rounds = Math.round(between(o.rounds));
        for (let r = 0; r < rounds; r++) {
          for (const [j, q] of a.questions.entries()) {
            if (o.stopped()) return;
            seq++;
            const final = r === rounds - 1;
            const answer =
              final && Math.random() < o.correctRate
                ? q.correctAnswer
                : `s${i}.a${k}.q${j}.${seq}.${randomBytes(3).toString('hex')}`;
            const op: SaveOp = {
              kind: 'save',
              studentId,
              assessmentId: a.id,
              questionId: q.id,
              clientSeq: seq,
              answer,
              attempts: [],
              outcome: 'unknown',
            };
            saves.push(op);
            const body = { assessmentId: a.id, questionId: q.id, answer, clientSeq: seq };
            op.outcome = (await attempt(() => student.post('/api/responses', body), op.attempts)).outcome;
            await sleep(between(o.thinkMs));
          }
        }
        if (o.stopped()) return;
        const op: SubmitOp = { kind: 'submit', studentId, assessmentId: a.id, attempts: [], outcome: 'unknown' };
        submits.push(op);
        const { outcome, reply } = await attempt(
          () => student.post('/api/results', { assessmentId: a.id }),
          op.attempts,
          // Already submitted after a try that got no answer: that try committed it.
          (r) =>
            r.status === 409 &&
            r.body?.code === 'already_submitted' &&
            op.attempts.slice(0, -1).some((t) => t.status === undefined || t.status >= 500)
              ? 'acked'
              : 'refused',
        );
        op.outcome = outcome;
        if (reply?.status === 201) op.resultId = reply.body.id;
        await sleep(between(o.thinkMs));
      }
    }),
  );
  return { saves, submits, figures };
}
