// Set-ups made through the API for the browser tests of the screens themselves (phone, dark mode):
// a teacher with a class and an assigned assessment, a student of that class with a result.
import { expect, type Browser, type Page } from '@playwright/test';
import {
  apiGet,
  apiPost,
  newUser,
  pageInNewContext,
  signUp,
  wrongAnswer,
  type QuestionJson,
  type TestUser,
} from './helpers';

// A lesson that gives four multiple-choice questions of its own kind (each sentence is asked once);
// the standards journey uses it too.
export const LESSON = [
  'The water cycle moves water between the oceans, the air and the land.',
  'Evaporation turns liquid water from lakes and oceans into water vapour when the sun heats it.',
  'Condensation happens when water vapour cools high in the sky and forms the droplets of clouds.',
  'Precipitation is water falling from clouds as rain, snow, sleet or hail.',
  'Runoff carries rain water over the ground into rivers that flow back to the sea.',
  'Plants release water vapour from their leaves in a process called transpiration.',
].join(' ');

export interface Classroom {
  teacher: Page;
  teacherUser: TestUser;
  cls: { id: string; name: string; joinCode: string };
  assessment: { id: string; title: string };
  questions: QuestionJson[];
}

const suffix = () => `${Date.now().toString(36).slice(-4)}${Math.random().toString(36).slice(2, 6)}`;

export interface ClassroomOptions {
  questionCount?: number;
  /** The teacher's sign-up (default: a new user). */
  teacherUser?: TestUser;
  className?: string;
  subject?: string;
}

/** A signed-up teacher with a class and an assigned multiple-choice assessment (offline generator). */
export async function classroom(browser: Browser, options: ClassroomOptions = {}): Promise<Classroom> {
  const { questionCount = 4, teacherUser = newUser('walk-teacher') } = options;
  const teacher = await pageInNewContext(browser);
  await signUp(teacher, teacherUser);
  const run = suffix();
  const cls = await apiPost<Classroom['cls']>(teacher, '/api/classes', {
    name: options.className ?? `Life Science ${run}`,
    subject: options.subject ?? 'Science',
    period: '3',
  });
  const assessment = await apiPost<Classroom['assessment']>(teacher, '/api/assessments', {
    title: `Cells ${run}`,
    classId: cls.id,
    contentToAssess: LESSON,
    questionType: 'multiple_choice',
    numberOfQuestions: questionCount,
  });
  await expect
    .poll(
      async () =>
        (await apiGet<{ generationStatus: string }>(teacher, `/api/assessments/${assessment.id}`)).generationStatus,
      {
        timeout: 30_000,
        intervals: [250, 500, 1_000],
      },
    )
    .toBe('ready');
  const questions = await apiGet<QuestionJson[]>(teacher, `/api/assessments/${assessment.id}/questions`);
  await apiPost(teacher, `/api/assessments/${assessment.id}/assign`);
  return { teacher, teacherUser, cls, assessment, questions };
}

/** A signed-up student who joined the class by its code (through the API). */
export async function studentOf(browser: Browser, joinCode: string): Promise<{ page: Page; user: TestUser }> {
  const student = await pageInNewContext(browser);
  const user = newUser('walk-student');
  await signUp(student, user, 'Student');
  await apiPost(student, '/api/classes/join', { joinCode });
  return { page: student, user };
}

/** The student answers `right` questions correctly and submits (through the API); returns the result id. */
export async function submitted(student: Page, c: Classroom, right: number): Promise<string> {
  await expect
    .poll(
      async () =>
        (await apiGet<{ id: string }[]>(student, '/api/student/available-assessments')).some(
          (a) => a.id === c.assessment.id,
        ),
      { timeout: 15_000, intervals: [100, 250, 500] },
    )
    .toBe(true);
  for (const [i, q] of c.questions.entries()) {
    const answer = i < right ? (q.correctAnswer ?? '') : wrongAnswer(q);
    await apiPost(student, '/api/responses', { assessmentId: c.assessment.id, questionId: q.id, answer });
  }
  const result = await apiPost<{ id: string }>(student, '/api/results', { assessmentId: c.assessment.id });
  return result.id;
}

/** Dark mode on for the page's signed-in user (their stored preference), applied by a reload. */
export async function darkMode(page: Page): Promise<void> {
  const token = (await page.context().cookies()).find((c) => c.name === 'cp_csrf')?.value ?? '';
  const response = await page.request.patch('/api/auth/user/preferences', {
    data: { darkMode: true },
    headers: { 'X-CSRF-Token': decodeURIComponent(token) },
  });
  expect(response.ok(), `dark mode: ${response.status()}`).toBeTruthy();
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-bs-theme', 'dark');
}
