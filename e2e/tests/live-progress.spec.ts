// The class as it happens, and the teacher's own try: while a student answers, the results page
// and the class grid show how far they are (counts only) without a reload, then the submission;
// a teacher tries the assessment as a student on the real taking page and leaves no trace in the
// results. Assessments are generated offline (no OpenAI key).
import { expect, type Browser, type Page, type Request } from '@playwright/test';
import {
  test,
  apiGet,
  apiPost,
  newUser,
  pageInNewContext,
  signUp,
  wrongAnswer,
  type QuestionJson,
  type TestUser,
} from './helpers';

const LESSON = [
  'The water cycle moves water between the oceans, the air and the land.',
  'Evaporation turns liquid water from lakes and oceans into water vapour when the sun heats it.',
  'Condensation happens when water vapour cools high in the sky and forms the droplets of clouds.',
  'Precipitation is water falling from clouds as rain, snow, sleet or hail.',
  'Runoff carries rain water over the ground into rivers that flow back to the sea.',
  'Plants release water vapour from their leaves in a process called transpiration.',
].join(' ');

const suffix = () => `${Date.now().toString(36).slice(-4)}${Math.random().toString(36).slice(2, 6)}`;

interface Setup {
  teacher: Page;
  cls: { id: string; name: string; joinCode: string };
  assessment: { id: string; title: string };
  questions: QuestionJson[];
}

/** A teacher with a class and an assigned multiple-choice assessment, made through the API. */
async function teacherWithAssessment(browser: Browser, count: number): Promise<Setup> {
  const teacher = await pageInNewContext(browser);
  await signUp(teacher, newUser('progress-teacher'));
  const s = suffix();
  const cls = await apiPost<Setup['cls']>(teacher, '/api/classes', {
    name: `Earth Science ${s}`,
    subject: 'Science',
    period: '2',
  });
  const assessment = await apiPost<Setup['assessment']>(teacher, '/api/assessments', {
    title: `Water Cycle ${s}`,
    classId: cls.id,
    contentToAssess: LESSON,
    questionType: 'multiple_choice',
    numberOfQuestions: count,
  });
  await expect
    .poll(
      async () =>
        (await apiGet<{ generationStatus: string }>(teacher, `/api/assessments/${assessment.id}`)).generationStatus,
      { timeout: 30_000, intervals: [250, 500, 1_000] },
    )
    .toBe('ready');
  const questions = await apiGet<QuestionJson[]>(teacher, `/api/assessments/${assessment.id}/questions`);
  expect(questions).toHaveLength(count);
  await apiPost(teacher, `/api/assessments/${assessment.id}/assign`);
  return { teacher, cls, assessment, questions };
}

async function studentInClass(browser: Browser, joinCode: string, assessmentId: string) {
  const base = newUser('progress-student');
  const user: TestUser = { ...base, firstName: 'Pia', lastName: `Progress${suffix()}` };
  const page = await pageInNewContext(browser);
  await signUp(page, user, 'Student');
  await apiPost(page, '/api/classes/join', { joinCode });
  await expect
    .poll(
      async () =>
        (await apiGet<{ id: string }[]>(page, '/api/student/available-assessments')).some((a) => a.id === assessmentId),
      { timeout: 15_000, intervals: [100, 250, 500] },
    )
    .toBe(true);
  return { user, page, name: `${user.firstName} ${user.lastName}` };
}

const progressRow = (page: Page, name: string) =>
  page
    .getByRole('table', { name: 'Live progress' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name, exact: true }) });

const gridCell = (page: Page, name: string) =>
  page
    .getByRole('region', { name: 'Class Results' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name, exact: true }) })
    .getByRole('cell');

test('when a student answers while the teacher watches, then the results page and the grid show their progress live, without answers, then the submission', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { teacher, cls, assessment, questions } = await teacherWithAssessment(browser, 4);
  const student = await studentInClass(browser, cls.joinCode, assessment.id);

  await teacher.goto(`/assessment-results/${assessment.id}`);
  await expect(teacher.getByRole('heading', { name: assessment.title })).toBeVisible();
  await expect(progressRow(teacher, student.name)).toContainText('Not started');
  const grid = await teacher.context().newPage();
  await grid.goto(`/class/${cls.id}`);
  await expect(gridCell(grid, student.name)).toHaveText(/No result/);

  // The student answers two of four (Next sends each at once).
  await student.page.goto(`/assessment/${assessment.id}`);
  const answers = questions.map((q, i) => (i % 2 === 0 ? (q.correctAnswer ?? '') : wrongAnswer(q)));
  for (let i = 0; i < 2; i++) {
    await expect(student.page.getByText(`Question ${i + 1} of 4`)).toBeVisible();
    await student.page.getByLabel(answers[i]!, { exact: true }).check();
    await student.page.getByRole('button', { name: 'Next' }).click();
  }
  await expect(student.page.getByTestId('save-status')).toHaveText('Saved');

  // Both teacher screens move without a reload: counts, never the answers.
  const row = progressRow(teacher, student.name);
  await expect(row).toContainText('In progress', { timeout: 15_000 });
  await expect(row).toContainText('2 of 4 answered');
  await expect(teacher.getByTestId('progress-counts')).toHaveText('1 in progress · 0 submitted · 0 not started');
  for (const a of answers.slice(0, 2))
    await expect(teacher.getByRole('region', { name: 'Live Progress' })).not.toContainText(a);
  await expect(gridCell(grid, student.name)).toHaveText(/In progress\s*2 of 4 answered/, { timeout: 15_000 });

  // The student finishes and submits.
  for (let i = 2; i < 4; i++) {
    await expect(student.page.getByText(`Question ${i + 1} of 4`)).toBeVisible();
    await student.page.getByLabel(answers[i]!, { exact: true }).check();
    if (i < 3) await student.page.getByRole('button', { name: 'Next' }).click();
  }
  await expect(row).toContainText('3 of 4 answered', { timeout: 15_000 });
  await student.page.getByRole('button', { name: 'Submit Assessment' }).click();
  await student.page.getByRole('dialog').getByRole('button', { name: 'Submit now' }).click();
  await expect(student.page.getByText('Assessment submitted successfully!')).toBeVisible({ timeout: 15_000 });

  await expect(row).toContainText('Submitted', { timeout: 15_000 });
  await expect(teacher.getByTestId('progress-counts')).toHaveText('0 in progress · 1 submitted · 0 not started');
  await expect(teacher.getByTestId('stat-Submitted')).toHaveText('1 / 1');
  await expect(teacher.getByText('No submissions yet.')).toHaveCount(0);
  await expect(gridCell(grid, student.name)).toHaveText(/50%/, { timeout: 15_000 });
});

test('when the teacher tries the assessment as a student, then the real taking page scores it and no response or result appears anywhere', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const { teacher, cls, assessment, questions } = await teacherWithAssessment(browser, 2);
  const student = await studentInClass(browser, cls.joinCode, assessment.id);

  await teacher.goto(`/assessment-preview/${assessment.id}`);
  const stored: string[] = [];
  teacher.on('request', (r: Request) => {
    if (r.method() === 'POST' && /\/api\/(responses|results)\b/.test(new URL(r.url()).pathname)) stored.push(r.url());
  });
  const keysSeen: boolean[] = [];
  teacher.on('response', async (r) => {
    if (new URL(r.url()).pathname === `/api/assessments/${assessment.id}/student-preview`)
      keysSeen.push(/correctAnswer|acceptedAnswers/.test(await r.text()));
  });
  await teacher.getByRole('link', { name: 'Try as a Student' }).click();
  await expect(teacher).toHaveURL(new RegExp(`/assessment-try/${assessment.id}$`));
  const banner = teacher.getByRole('note');
  await expect(banner).toContainText('Student preview.');
  await expect(banner).toContainText('Nothing you do here is saved');

  // Answer, go back and forth, submit: the first right, the second wrong.
  await expect(teacher.getByText('Question 1 of 2')).toBeVisible();
  await teacher.getByLabel(questions[0]!.correctAnswer!, { exact: true }).check();
  await teacher.getByRole('button', { name: 'Next' }).click();
  await teacher.getByRole('button', { name: 'Previous' }).click();
  await expect(teacher.getByLabel(questions[0]!.correctAnswer!, { exact: true })).toBeChecked();
  await teacher.getByRole('button', { name: 'Next' }).click();
  await teacher.getByLabel(wrongAnswer(questions[1]!), { exact: true }).check();
  await teacher.getByRole('button', { name: 'Submit Assessment' }).click();
  await teacher.getByRole('dialog').getByRole('button', { name: 'Submit now' }).click();
  await expect(teacher.getByTestId('result-score')).toHaveText('50%');
  await expect(teacher.getByRole('note')).toContainText('Nothing you do here is saved');
  expect(stored).toEqual([]);
  expect(keysSeen).toEqual([false]);

  // Nothing of the try anywhere: no response, no result, the student still not started.
  expect(await apiGet<unknown[]>(teacher, `/api/assessments/${assessment.id}/responses`)).toEqual([]);
  await teacher.goto(`/assessment-results/${assessment.id}`);
  await expect(teacher.getByTestId('stat-Submitted')).toHaveText('0 / 1');
  await expect(teacher.getByText('No submissions yet.')).toBeVisible();
  await expect(progressRow(teacher, student.name)).toContainText('Not started');
  await expect(teacher.getByTestId('progress-counts')).toHaveText('0 in progress · 0 submitted · 1 not started');
  await teacher.goto(`/class/${cls.id}`);
  await expect(gridCell(teacher, student.name)).toHaveText(/No result/);
  const results = await apiGet<{ summary: { submitted: number } }>(
    teacher,
    `/api/assessments/${assessment.id}/results`,
  );
  expect(results.summary.submitted).toBe(0);
});
