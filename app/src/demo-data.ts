// The demo district's content, made through the gateway's public API like a teacher and her
// students would (so every run mode gets the same data from the same flows): the demo teacher's
// class with the demo student and three classmates, an assessment built from a lesson text by the
// generator, assigned, and a result from each student. Runs after start when DEMO_SEED is on.
import { DEMO_CLASSMATES, DEMO_DOMAIN } from '@checkpoint/identity';

export const DEMO_CLASS = { name: 'Science 6', subject: 'Science', period: '2' };
export const DEMO_ASSESSMENT_TITLE = 'Photosynthesis check';

const LESSON = `Photosynthesis is the process plants use to make their own food from sunlight.
It takes place mostly in the leaves, inside small structures called chloroplasts.
Chloroplasts contain chlorophyll, a green pigment that absorbs light energy.
Plants take in carbon dioxide from the air through tiny openings in their leaves called stomata.
Water travels from the roots up to the leaves through tubes called xylem.
Using light energy, the plant turns carbon dioxide and water into glucose, a sugar it uses for energy and growth.
Oxygen is released into the air as a by-product of photosynthesis.
Animals, including people, breathe in that oxygen, and many animals eat plants for the energy stored in glucose.`;

/** Share of questions each student answers correctly: varied scores for the results pages. */
const SCORES: Record<string, number> = {
  [`student@${DEMO_DOMAIN}`]: 0.8,
  [DEMO_CLASSMATES[0]!.email]: 1,
  [DEMO_CLASSMATES[1]!.email]: 0.6,
  [DEMO_CLASSMATES[2]!.email]: 0.4,
};

export type DemoDataOutcome = 'created' | 'accounts-not-new' | 'already-there';

/**
 * Makes the demo content once: only when the demo teacher signs in with `password` (the accounts
 * were seeded with it, in this run) and has no class yet.
 */
export async function seedDemoData(baseUrl: string, password: string): Promise<DemoDataOutcome> {
  const teacher = new Session(baseUrl);
  if (!(await teacher.signIn(`teacher@${DEMO_DOMAIN}`, password))) return 'accounts-not-new';
  const existing = await teacher.call<unknown[]>('GET', '/api/classes');
  if (existing.length > 0) return 'already-there';

  const cls = await teacher.call<{ id: string; joinCode: string }>('POST', '/api/classes', DEMO_CLASS);
  const students: Session[] = [];
  for (const email of Object.keys(SCORES)) {
    const student = new Session(baseUrl);
    if (!(await student.signIn(email, password))) throw new Error(`demo data: ${email} cannot sign in`);
    // The class service learns of a new class from an event: a join right after may wait for it.
    await student.call('POST', '/api/classes/join', { joinCode: cls.joinCode });
    students.push(student);
  }

  const assessment = await teacher.call<{ id: string }>('POST', '/api/assessments', {
    title: DEMO_ASSESSMENT_TITLE,
    topic: 'Photosynthesis',
    contentToAssess: LESSON,
    questionType: 'multiple_choice',
    numberOfQuestions: 5,
    classId: cls.id,
  });
  const generated = await poll(
    () => teacher.call<{ generationStatus: string }>('GET', `/api/assessments/${assessment.id}`),
    (a) => a.generationStatus !== 'generating',
  );
  if (generated.generationStatus !== 'ready')
    throw new Error(`demo data: generation ended ${generated.generationStatus}`);
  await teacher.call('POST', `/api/assessments/${assessment.id}/assign`);

  const questions = await teacher.call<{ id: string; options: string[] | null; correctAnswer: string }[]>(
    'GET',
    `/api/assessments/${assessment.id}/questions`,
  );
  for (const [i, student] of students.entries()) {
    const right = Math.round(questions.length * SCORES[student.email!]!);
    for (const [j, q] of questions.entries()) {
      const wrong = q.options?.find((o) => o !== q.correctAnswer) ?? `not ${q.correctAnswer}`;
      // Wrong answers on different questions for each student, so the item analysis has a spread.
      const correct = (j + i) % questions.length < right;
      await student.call('POST', '/api/responses', {
        assessmentId: assessment.id,
        questionId: q.id,
        answer: correct ? q.correctAnswer : wrong,
      });
    }
    await student.call('POST', '/api/results', { assessmentId: assessment.id });
  }
  return 'created';
}

async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A signed-in browser as the gateway sees one: cookies, the CSRF header and Origin on writes. */
class Session {
  private readonly cookies = new Map<string, string>();
  email: string | undefined;

  constructor(private readonly baseUrl: string) {}

  async signIn(email: string, password: string): Promise<boolean> {
    const res = await this.send('POST', '/api/auth/simple-login', { email, password });
    if (res.status !== 200) return false;
    this.email = email;
    return true;
  }

  /** The answer's JSON; throws on anything but 2xx. */
  async call<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.send(method, path, body);
    const text = await res.text();
    if (!res.ok) throw new Error(`demo data: ${method} ${path} answered ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  private async send(method: string, path: string, body?: unknown): Promise<Response> {
    if (method !== 'GET' && !this.cookies.has('cp_csrf')) await (await this.send('GET', '/api/auth/user')).text();
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.cookies.size)
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
    if (method !== 'GET') {
      headers['x-csrf-token'] = this.cookies.get('cp_csrf') ?? '';
      headers.origin = this.baseUrl;
    }
    const res = await fetch(new URL(path, this.baseUrl), {
      method,
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const value = decodeURIComponent(pair.slice(eq + 1).trim());
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(pair.slice(0, eq).trim());
      else this.cookies.set(pair.slice(0, eq).trim(), value);
    }
    return res;
  }
}
