// Results journeys (analytics service): the teacher's live class grid filling in as students submit
// (server-sent events, no reload), the Detailed report with its CSV and PDF exports, the results page
// of one assessment with item statistics, the signed-out guard of the teacher screens and the
// student's answer review after submitting. Assessments are generated offline (no OpenAI key).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, type Browser, type Download, type Page } from '@playwright/test';
import {
  test,
  apiGet,
  apiPost,
  cspViolations,
  newUser,
  pageInNewContext,
  signUp,
  wrongAnswer,
  type TestUser,
  type QuestionJson,
} from './helpers';

const LESSON = [
  'The water cycle moves water between the oceans, the air and the land.',
  'Evaporation turns liquid water from lakes and oceans into water vapour when the sun heats it.',
  'Condensation happens when water vapour cools high in the sky and forms the droplets of clouds.',
  'Precipitation is water falling from clouds as rain, snow, sleet or hail.',
  'Runoff carries rain water over the ground into rivers that flow back to the sea.',
  'Plants release water vapour from their leaves in a process called transpiration.',
].join(' ');

/** A name unique to this run and call, so rows of earlier runs never match. */
function uniqueSuffix(): string {
  return `${Date.now().toString(36).slice(-4)}${Math.random().toString(36).slice(2, 6)}`;
}

function namedUser(prefix: string, firstName: string): TestUser {
  const user = newUser(prefix);
  return { ...user, firstName, lastName: `${user.lastName}${uniqueSuffix()}` };
}

const fullName = (u: TestUser) => `${u.firstName} ${u.lastName}`;

/** The first `right` questions answered correctly, the rest wrongly. */
function answersFor(questions: QuestionJson[], right: number): string[] {
  return questions.map((q, i) => (i < right ? (q.correctAnswer ?? '') : wrongAnswer(q)));
}

/**
 * Wait (bounded) until the assessment service holds the generated questions: its own
 * generationStatus turns 'ready' once the generation service's questions have arrived.
 */
async function waitForQuestions(teacher: Page, assessmentId: string, count: number): Promise<QuestionJson[]> {
  await expect
    .poll(
      async () =>
        (await apiGet<{ generationStatus: string }>(teacher, `/api/assessments/${assessmentId}`)).generationStatus,
      { timeout: 30_000, intervals: [250, 500, 1_000] },
    )
    .toBe('ready');
  const questions = await apiGet<QuestionJson[]>(teacher, `/api/assessments/${assessmentId}/questions`);
  expect(questions).toHaveLength(count);
  for (const q of questions) expect(q.correctAnswer, `key of ${q.questionText}`).toBeTruthy();
  return questions;
}

interface Setup {
  teacher: Page;
  cls: { id: string; name: string; joinCode: string };
  assessment: { id: string; title: string };
  questions: QuestionJson[];
}

/** A signed-up teacher with a class and an assigned multiple-choice assessment, made through the API. */
async function teacherWithAssignedAssessment(browser: Browser, questionCount: number): Promise<Setup> {
  const teacher = await pageInNewContext(browser);
  await signUp(teacher, newUser('results-teacher'));
  const suffix = uniqueSuffix();
  const cls = await apiPost<{ id: string; name: string; joinCode: string }>(teacher, '/api/classes', {
    name: `Earth Science ${suffix}`,
    subject: 'Science',
    period: '4',
  });
  const assessment = await apiPost<{ id: string; title: string }>(teacher, '/api/assessments', {
    title: `Water Cycle ${suffix}`,
    classId: cls.id,
    contentToAssess: LESSON,
    questionType: 'multiple_choice',
    numberOfQuestions: questionCount,
  });
  const questions = await waitForQuestions(teacher, assessment.id, questionCount);
  await apiPost(teacher, `/api/assessments/${assessment.id}/assign`);
  return { teacher, cls, assessment, questions };
}

async function studentInClass(browser: Browser, joinCode: string, firstName: string) {
  const user = namedUser('results-student', firstName);
  const page = await pageInNewContext(browser);
  await signUp(page, user, 'Student');
  await apiPost(page, '/api/classes/join', { joinCode });
  return { user, page };
}

/**
 * Joining reaches the assessment service by event: wait (bounded) until the student's list offers the
 * assessment, as their dashboard would, before answering.
 */
async function waitUntilAvailable(student: Page, assessmentId: string): Promise<void> {
  await expect
    .poll(
      async () =>
        (await apiGet<{ id: string }[]>(student, '/api/student/available-assessments')).some(
          (a) => a.id === assessmentId,
        ),
      { timeout: 15_000, intervals: [100, 250, 500] },
    )
    .toBe(true);
}

/** Answer and submit through the API (setup only; the journeys below take it in the browser). */
async function submitThroughApi(student: Page, assessmentId: string, questions: QuestionJson[], answers: string[]) {
  await waitUntilAvailable(student, assessmentId);
  for (const [i, q] of questions.entries()) {
    await apiPost(student, '/api/responses', { assessmentId, questionId: q.id, answer: answers[i] });
  }
  await apiPost(student, '/api/results', { assessmentId });
}

async function answerOnPage(page: Page, type: string, answer: string): Promise<void> {
  if (type === 'short_answer') await page.getByLabel('Your answer').fill(answer);
  else await page.getByLabel(answer, { exact: true }).check();
}

/** Take the assessment in the browser, one question at a time, and submit. */
async function takeOnPage(student: Page, assessmentId: string, questions: QuestionJson[], answers: string[]) {
  await waitUntilAvailable(student, assessmentId);
  await student.goto(`/assessment/${assessmentId}`);
  for (const [i, q] of questions.entries()) {
    await expect(student.getByText(`Question ${i + 1} of ${questions.length}`)).toBeVisible();
    await answerOnPage(student, q.questionType, answers[i] ?? '');
    if (i < questions.length - 1) await student.getByRole('button', { name: 'Next' }).click();
  }
  await student.getByRole('button', { name: 'Submit Assessment' }).click();
  await student
    .getByRole('dialog')
    .getByRole('button', { name: /^Submit (now|anyway)$/ })
    .click();
  await expect(student.getByText('Assessment submitted successfully!')).toBeVisible({ timeout: 15_000 });
}

/** The progress-grid cell of one student (one assessment: the row's only data cell). */
function gridCell(page: Page, studentName: string) {
  return page
    .getByRole('region', { name: 'Class Results' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: studentName, exact: true }) })
    .getByRole('cell');
}

/** A minimal RFC 4180 reader (quoted cells, doubled quotes); drops the byte-order mark. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const src = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < src.length; i += 1) {
    const c = src[i];
    if (quoted) {
      if (c === '"' && src[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && src[i + 1] === '\n') i += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

async function download(page: Page, linkName: string): Promise<{ file: Download; body: Buffer }> {
  const [file] = await Promise.all([
    page.waitForEvent('download', { timeout: 20_000 }),
    page.getByRole('link', { name: linkName }).click(),
  ]);
  const filePath = await file.path();
  return { file, body: readFileSync(filePath) };
}

test('when three students submit while the teacher watches the class grid, then each percentage appears live and the Detailed report exports exactly those rows', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const suffix = uniqueSuffix();
  const className = `Geography ${suffix}`;
  const title = `Water Cycle Quiz ${suffix}`;

  // --- Teacher signs up, creates the class on the dashboard and an assessment (offline generation).
  const teacher = await pageInNewContext(browser);
  await signUp(teacher, newUser('live-teacher'));
  await teacher.getByRole('button', { name: 'Create Class' }).click();
  const classDialog = teacher.getByRole('dialog');
  await classDialog.getByLabel('Class Name').fill(className);
  await classDialog.getByLabel('Subject').selectOption('Science');
  await classDialog.getByLabel('Period (optional)').fill('6');
  await classDialog.getByRole('button', { name: 'Create Class' }).click();
  await expect(teacher.getByText('Class created successfully!')).toBeVisible();
  await expect(teacher.getByRole('heading', { name: className })).toBeVisible();
  const joinCode = (await teacher.getByRole('button', { name: /^Join code / }).innerText()).trim();
  expect(joinCode).toMatch(/^[A-Z2-9]{6,8}$/);

  await teacher.getByRole('button', { name: 'Create Assessment' }).click();
  const dialog = teacher.getByRole('dialog');
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Content to assess').fill(LESSON);
  await dialog.getByLabel('Question type').selectOption('multiple_choice');
  await dialog.getByLabel('Number of questions').fill('5');
  await dialog.getByRole('button', { name: 'Create Assessment' }).click();
  await expect(teacher.getByText('Assessment created successfully with questions built from your text.')).toBeVisible({
    timeout: 30_000,
  });
  await expect(teacher).toHaveURL(/\/assessment-preview\/[0-9a-f-]+$/);
  const assessmentId = teacher.url().split('/').pop() ?? '';
  await teacher.getByRole('button', { name: 'Assign to Students' }).click();
  await expect(teacher.getByText('Assessment Assigned!')).toBeVisible();
  const questions = await waitForQuestions(teacher, assessmentId, 5);

  // --- Three students sign up and join with the code (Join a Class page).
  const people = [
    { first: 'Avery', right: 5, percent: '100%', level: 'Above Standard' },
    { first: 'Blake', right: 4, percent: '80%', level: 'At Standard' },
    { first: 'Casey', right: 1, percent: '20%', level: 'Below Standard' },
  ];
  const students: { user: TestUser; page: Page; right: number; percent: string; level: string }[] = [];
  for (const p of people) {
    const user = namedUser('live-student', p.first);
    const page = await pageInNewContext(browser);
    await signUp(page, user, 'Student');
    await page.goto('/join-class');
    await page.getByLabel('Class Code').fill(joinCode);
    await page.getByRole('button', { name: 'Join Class' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('region', { name: 'My Classes' })).toContainText(className);
    students.push({ user, page, ...p });
  }

  // --- The teacher opens the live view: the dashboard grid of the class, every student without a result.
  const liveStream = teacher.waitForRequest((r) => r.url().includes('/api/dashboard/live?classId='), {
    timeout: 15_000,
  });
  await teacher.goto('/');
  await liveStream;
  await teacher.getByLabel('Class', { exact: true }).selectOption({ label: `${className} - Period 6` });
  await expect(teacher.getByRole('region', { name: 'Class Results' }).getByRole('columnheader')).toHaveText([
    'Student',
    title,
  ]);
  for (const s of students) await expect(gridCell(teacher, fullName(s.user))).toHaveText('—No result');
  const liveUrl = teacher.url();
  // Anything that reloads or navigates the document would drop this marker and fire 'load'.
  await teacher.evaluate(() => {
    (window as unknown as { liveMarker?: string }).liveMarker = 'kept';
  });
  let loads = 0;
  teacher.on('load', () => {
    loads += 1;
  });

  // --- Each student submits in their own context; the teacher's cell fills in without a reload.
  for (const s of students) {
    await takeOnPage(s.page, assessmentId, questions, answersFor(questions, s.right));
    await expect(s.page.getByTestId('result-score')).toHaveText(s.percent);
    await expect(s.page.getByTestId('result-level')).toHaveText(s.level);
    await expect(gridCell(teacher, fullName(s.user))).toHaveText(`${s.percent}, ${s.level}`, { timeout: 15_000 });
  }
  expect(loads, 'the teacher page was not reloaded').toBe(0);
  expect(await teacher.evaluate(() => (window as unknown as { liveMarker?: string }).liveMarker)).toBe('kept');
  expect(teacher.url()).toBe(liveUrl);

  // --- Reports: Detailed, past week, this class; then Export Data as CSV and PDF.
  await teacher.getByRole('link', { name: 'Reports' }).first().click();
  await expect(teacher.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
  const filters = teacher.getByRole('form', { name: 'Report filters' });
  await filters.getByLabel(`${className} - Period 6`).check();
  await filters.getByLabel('Time Period').selectOption({ label: 'Past Week' });
  await filters.getByLabel('Report Type').selectOption({ label: 'Detailed Results' });
  await filters.getByRole('button', { name: 'Generate Report' }).click();
  const report = teacher.getByRole('region', { name: 'Detailed Results Report, last 7 days' });
  await expect(report).toBeVisible({ timeout: 15_000 });
  await expect(report.getByRole('table').getByRole('row')).toHaveCount(4);
  for (const s of students) {
    await expect(report.getByRole('row').filter({ hasText: fullName(s.user) })).toContainText(s.percent.slice(0, -1));
  }

  const csv = await download(teacher, 'Download CSV');
  expect(csv.file.suggestedFilename()).toMatch(/\.csv$/);
  const [header, ...rows] = parseCsv(csv.body.toString('utf8'));
  expect(header).toEqual([
    'Student',
    'Email',
    'Assessment',
    'Class',
    'Score %',
    'Performance Level',
    'Level at Submission',
    'Raised By',
    'Submitted',
  ]);
  const got = rows.map((r) => r.slice(0, 6)).sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
  const want = students
    .map((s) => [fullName(s.user), s.user.email, title, className, s.percent.slice(0, -1), s.level])
    .sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
  expect(got).toEqual(want);
  // None raised: the level at submission is the level, and nothing raised it.
  for (const r of rows) expect(r.slice(6, 8)).toEqual([r[5], '']);
  for (const r of rows) expect(Date.now() - Date.parse(r[8] ?? '')).toBeLessThan(60 * 60 * 1000);

  const pdf = await download(teacher, 'Download PDF');
  expect(pdf.file.suggestedFilename()).toMatch(/\.pdf$/);
  expect(pdf.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
});

test("when the teacher follows an assessment's Results button, then each student's score and level and the item statistics show", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { teacher, cls, assessment, questions } = await teacherWithAssignedAssessment(browser, 5);
  // 5/5 (Above), 4/5 (At), 2/5 (Below): Q1–Q2 all right, Q3–Q4 two of three, Q5 one of three.
  const plan = [
    { first: 'Dana', right: 5, percent: '100%', level: 'Above Standard', points: '5 / 5' },
    { first: 'Eli', right: 4, percent: '80%', level: 'At Standard', points: '4 / 5' },
    { first: 'Fern', right: 2, percent: '40%', level: 'Below Standard', points: '2 / 5' },
  ];
  const students = [];
  for (const p of plan) {
    const { user, page } = await studentInClass(browser, cls.joinCode, p.first);
    await submitThroughApi(page, assessment.id, questions, answersFor(questions, p.right));
    students.push({ user, ...p });
  }

  // The charts (chart.js on canvas) must draw under the CSP: styles from our origin only.
  const violations = await cspViolations(teacher);
  await teacher.goto('/assessments');
  await teacher.getByRole('link', { name: `Results of ${assessment.title}` }).click();
  await expect(teacher).toHaveURL(new RegExp(`/assessment-results/${assessment.id}$`));
  await expect(teacher.getByRole('heading', { name: assessment.title, level: 1 })).toBeVisible();
  await expect(teacher.getByText(/ · 5 questions$/)).toContainText(cls.name);
  await expect(teacher.getByTestId('stat-Submitted')).toHaveText('3 / 3', { timeout: 15_000 });
  await expect(teacher.getByTestId('stat-Average Score')).toHaveText('73%');
  await expect(teacher.getByTestId('stat-Above Standard')).toHaveText('1');
  await expect(teacher.getByTestId('stat-At Standard')).toHaveText('1');
  await expect(teacher.getByTestId('stat-Below Standard')).toHaveText('1');

  const table = teacher.getByRole('region', { name: 'Student Results' });
  for (const s of students) {
    const row = table.getByRole('row').filter({ has: teacher.getByRole('rowheader', { name: fullName(s.user) }) });
    const cells = row.getByRole('cell');
    await expect(cells.nth(0)).toHaveText(s.percent);
    await expect(cells.nth(1)).toHaveText(s.level);
    await expect(cells.nth(2)).toHaveText(s.points);
  }
  // One student's answers on demand: Eli missed only Q5.
  const eli = students[1];
  await table.getByRole('button', { name: `Show answers of ${fullName(eli!.user)}` }).click();
  const q5 = questions[4]!;
  await expect(table.getByText(`Q5. ${q5.questionText}`)).toBeVisible();
  await expect(table.getByText(`(correct: ${q5.correctAnswer})`)).toBeVisible();
  await expect(table.getByText('✓ Correct')).toHaveCount(4);
  await expect(table.getByText('✗ Incorrect')).toHaveCount(1);

  const items = teacher.getByRole('region', { name: 'Item Statistics' });
  const expectedShare = ['100%', '100%', '67%', '67%', '33%'];
  for (const [i, q] of questions.entries()) {
    const row = items.getByTestId(`item-${i + 1}`);
    await expect(row.getByRole('rowheader')).toHaveText(`Q${i + 1}`);
    const cells = row.getByRole('cell');
    await expect(cells.nth(0)).toHaveText(q.questionText);
    await expect(cells.nth(1)).toHaveText('3');
    await expect(cells.nth(2)).toHaveText(expectedShare[i] ?? '');
    await expect(cells.nth(4)).toContainText(`${q.correctAnswer}: `);
    await expect(cells.nth(4)).toContainText('✓ Correct answer');
  }
  await expect(teacher.getByRole('img', { name: /^Score distribution\. / })).toBeVisible();
  expect(violations).toEqual([]);
});

for (const path of ['/students', '/reports', '/admin', `/assessment-results/${randomUUID()}`]) {
  test(`when signed out on ${path.replace(/[0-9a-f-]{36}$/, '{id}')}, then the Unauthorized toast shows and /auth follows`, async ({
    page,
  }) => {
    await page.goto(path);
    const toast = page.getByRole('alert').filter({ hasText: 'Unauthorized' });
    await expect(toast).toBeVisible();
    await expect(toast).toContainText('You are logged out. Logging in again...');
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
  });
}

test('when a student submits, then the result page shows each question with their answer and the correct one, also after a reload', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { cls, assessment, questions } = await teacherWithAssignedAssessment(browser, 3);
  const { page: student } = await studentInClass(browser, cls.joinCode, 'Gale');
  // Q1 and Q3 right, Q2 wrong: 67%.
  const answers = questions.map((q, i) => (i === 1 ? wrongAnswer(q) : (q.correctAnswer ?? '')));
  await takeOnPage(student, assessment.id, questions, answers);

  const checkReview = async () => {
    await expect(student.getByTestId('result-score')).toHaveText('67%');
    const review = student.getByRole('region', { name: 'Review Your Answers' });
    await expect(review.getByRole('listitem')).toHaveCount(questions.length);
    for (const [i, q] of questions.entries()) {
      const item = review.getByRole('listitem', { name: `Question ${i + 1}: ${q.questionText}` });
      await expect(item.locator('p').filter({ hasText: /^Your answer:/ })).toHaveText(`Your answer: ${answers[i]}`);
      await expect(item.locator('p').filter({ hasText: /^Correct answer:/ })).toHaveText(
        `Correct answer: ${q.correctAnswer}`,
      );
      await expect(item.getByTestId('review-mark')).toHaveText(i === 1 ? 'Incorrect' : 'Correct');
    }
  };
  await checkReview();
  await student.reload();
  await checkReview();
});
