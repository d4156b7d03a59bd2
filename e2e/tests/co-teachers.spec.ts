// Co-teachers (issue 30, item 8): the owner of a class adds a teacher of the same district by email
// on the class page's Teachers section; the co-teacher finds the class on /classes (marked, no
// delete), opens it and reads its results; deleting it is refused to them (403).
import { expect, type Page } from '@playwright/test';
import {
  apiGet,
  apiPost,
  checkA11y,
  csrfHeaders,
  newUser,
  pageInNewContext,
  signUp,
  test,
  wrongAnswer,
  type QuestionJson,
  type TestUser,
} from './helpers';

// The demo district (DEMO_SEED) owns this domain: sign-ups with it join it by the mailed link.
const DISTRICT_DOMAIN = 'demo.checkpoint.school';

const LESSON = [
  'The water cycle moves water between the oceans, the air and the land.',
  'Evaporation turns liquid water from lakes and oceans into water vapour when the sun heats it.',
  'Condensation happens when water vapour cools high in the sky and forms the droplets of clouds.',
  'Precipitation is water falling from clouds as rain, snow, sleet or hail.',
  'Runoff carries rain water over the ground into rivers that flow back to the sea.',
  'Plants release water vapour from their leaves in a process called transpiration.',
].join(' ');

const suffix = () => `${Date.now().toString(36).slice(-4)}${Math.random().toString(36).slice(2, 6)}`;

function districtUser(prefix: string, firstName: string): TestUser {
  const user = newUser(prefix);
  return {
    ...user,
    firstName,
    lastName: `${user.lastName}${suffix()}`,
    email: user.email.replace(/@.*$/, `@${DISTRICT_DOMAIN}`),
  };
}

async function waitForQuestions(teacher: Page, assessmentId: string): Promise<QuestionJson[]> {
  await expect
    .poll(
      async () =>
        (await apiGet<{ generationStatus: string }>(teacher, `/api/assessments/${assessmentId}`)).generationStatus,
      { timeout: 30_000, intervals: [250, 500, 1_000] },
    )
    .toBe('ready');
  return apiGet<QuestionJson[]>(teacher, `/api/assessments/${assessmentId}/questions`);
}

test('the owner adds a co-teacher by email, who sees the class and its results but cannot delete it', async ({
  browser,
}) => {
  // The owner, with a class and an assigned assessment (through the API: setup).
  const owner = await pageInNewContext(browser);
  await signUp(owner, districtUser('coteach-owner', 'Olive'));
  const className = `Earth Science ${suffix()}`;
  const cls = await apiPost<{ id: string; joinCode: string }>(owner, '/api/classes', {
    name: className,
    subject: 'Science',
    period: '2',
  });
  const assessment = await apiPost<{ id: string }>(owner, '/api/assessments', {
    title: 'Water Cycle',
    classId: cls.id,
    contentToAssess: LESSON,
    questionType: 'multiple_choice',
    numberOfQuestions: 2,
  });
  const questions = await waitForQuestions(owner, assessment.id);
  await apiPost(owner, `/api/assessments/${assessment.id}/assign`);

  // A student of the class submits (one right, one wrong).
  const studentUser = districtUser('coteach-student', 'Stella');
  const student = await pageInNewContext(browser);
  await signUp(student, studentUser, 'Student');
  await apiPost(student, '/api/classes/join', { joinCode: cls.joinCode });
  await expect
    .poll(
      async () =>
        (await apiGet<{ id: string }[]>(student, '/api/student/available-assessments')).some(
          (a) => a.id === assessment.id,
        ),
      { timeout: 15_000 },
    )
    .toBe(true);
  for (const [i, q] of questions.entries()) {
    const answer = i === 0 ? (q.correctAnswer ?? '') : wrongAnswer(q);
    await apiPost(student, '/api/responses', { assessmentId: assessment.id, questionId: q.id, answer });
  }
  await apiPost(student, '/api/results', { assessmentId: assessment.id });

  // Another teacher of the district signs up.
  const coUser = districtUser('coteach-co', 'Cora');
  const co = await pageInNewContext(browser);
  await signUp(co, coUser);

  // The owner adds them on the class page (the class service learns of new accounts by event: the
  // form is sent again while it still answers that no such teacher exists).
  await owner.goto(`/class/${cls.id}`);
  const teachers = owner.getByRole('region', { name: 'Teachers' });
  await expect(teachers.getByText('Owner', { exact: true })).toBeVisible();
  await expect(async () => {
    await teachers.getByLabel('Add a co-teacher').fill(coUser.email);
    await teachers.getByRole('button', { name: 'Add teacher' }).click();
    await expect(teachers.getByRole('status')).toHaveText(
      `${coUser.firstName} ${coUser.lastName} now teaches this class with you`,
      {
        timeout: 2_000,
      },
    );
  }).toPass({ timeout: 15_000 });
  await expect(teachers.getByText('Co-teacher', { exact: true })).toBeVisible();
  await expect(teachers.getByRole('button', { name: `Remove ${coUser.firstName} ${coUser.lastName}` })).toBeVisible();
  await checkA11y(owner, 'class page with its teachers');

  // The co-teacher finds the class on /classes, marked, without delete.
  await co.goto('/classes');
  const card = co.getByRole('article', { name: className });
  await expect(card).toBeVisible();
  await expect(card.getByText('Co-teaching')).toBeVisible();
  await expect(card.getByRole('button', { name: `Delete ${className}` })).toHaveCount(0);
  await card.getByRole('link', { name: `View Details of ${className}` }).click();
  await expect(co).toHaveURL(new RegExp(`/class/${cls.id}$`));
  await expect(co.getByRole('heading', { name: className })).toBeVisible();

  // …and its results: the student's row in the class grid.
  const results = co.getByRole('region', { name: 'Class Results' });
  await expect(results.getByText('1 result submitted')).toBeVisible({ timeout: 15_000 });
  await expect(
    results.getByRole('rowheader', { name: `${studentUser.firstName} ${studentUser.lastName}`, exact: true }),
  ).toBeVisible();
  const coTeachers = co.getByRole('region', { name: 'Teachers' });
  await expect(coTeachers.getByText('You co-teach this class.', { exact: false })).toBeVisible();
  await expect(coTeachers.getByLabel('Add a co-teacher')).toHaveCount(0);
  await checkA11y(co, 'class page of a co-teacher');

  // The assessment is theirs to read too.
  const listed = await apiGet<{ id: string }[]>(co, `/api/classes/${cls.id}/assessments`);
  expect(listed.map((a) => a.id)).toContain(assessment.id);

  // Deleting the class is the owner's alone.
  const refused = await co.request.delete(`/api/classes/${cls.id}`, { headers: await csrfHeaders(co) });
  expect(refused.status()).toBe(403);
  await co.reload();
  await expect(co.getByRole('heading', { name: className })).toBeVisible();
});
