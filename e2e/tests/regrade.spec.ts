// Grading by hand (docs/architecture.md, "Grading by hand"): a teacher regrades a student's short
// answer, right in other words, with feedback on the answer and on the result, from the
// assessment's results page; the student's result page then shows the new score and both
// feedbacks. A second student's answer waits in the To Review list (the assessment reviews short
// answers by hand) and is marked there. Assessments are generated offline (no OpenAI key).
import { expect, type Browser, type Page } from '@playwright/test';
import {
  test,
  apiGet,
  apiPost,
  csrfHeaders,
  newUser,
  pageInNewContext,
  signUp,
  type QuestionJson,
  type TestUser,
} from './helpers';

const LESSON = [
  'The water cycle moves water between the oceans, the air and the land.',
  'Evaporation turns liquid water from lakes and oceans into water vapour when the sun heats it.',
  'Condensation happens when water vapour cools high in the sky and forms the droplets of clouds.',
  'Precipitation is water falling from clouds as rain, snow, sleet or hail.',
  'Runoff carries rain water over the ground into rivers that flow back to the sea.',
].join(' ');

const suffix = () => `${Date.now().toString(36).slice(-4)}${Math.random().toString(36).slice(2, 6)}`;

async function student(browser: Browser, joinCode: string, firstName: string) {
  const base = newUser('regrade-student');
  const user: TestUser = { ...base, firstName, lastName: `${base.lastName}${suffix()}` };
  const page = await pageInNewContext(browser);
  await signUp(page, user, 'Student');
  await apiPost(page, '/api/classes/join', { joinCode });
  return { user, page, name: `${user.firstName} ${user.lastName}` };
}

/** Answers the one question with `answer` and submits, through the API (setup). */
async function submit(page: Page, assessmentId: string, questionId: string, answer: string) {
  await expect
    .poll(
      async () =>
        (await apiGet<{ id: string }[]>(page, '/api/student/available-assessments')).some((a) => a.id === assessmentId),
      { timeout: 15_000, intervals: [100, 250, 500] },
    )
    .toBe(true);
  await apiPost(page, '/api/responses', { assessmentId, questionId, answer });
  return apiPost<{ id: string }>(page, '/api/results', { assessmentId });
}

test('when a teacher regrades a short answer with feedback, then the student sees the new score and the feedback', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const teacher = await pageInNewContext(browser);
  await signUp(teacher, newUser('regrade-teacher'));
  const cls = await apiPost<{ id: string; joinCode: string }>(teacher, '/api/classes', {
    name: `Earth Science ${suffix()}`,
    subject: 'Science',
    period: '2',
  });
  const assessment = await apiPost<{ id: string; title: string }>(teacher, '/api/assessments', {
    title: `Water Cycle ${suffix()}`,
    classId: cls.id,
    contentToAssess: LESSON,
    questionType: 'short_answer',
    numberOfQuestions: 1,
  });
  await expect
    .poll(
      async () =>
        (await apiGet<{ generationStatus: string }>(teacher, `/api/assessments/${assessment.id}`)).generationStatus,
      { timeout: 30_000, intervals: [250, 500, 1_000] },
    )
    .toBe('ready');
  const [question] = await apiGet<QuestionJson[]>(teacher, `/api/assessments/${assessment.id}/questions`);
  expect(question?.questionType).toBe('short_answer');
  await apiPost(teacher, `/api/assessments/${assessment.id}/assign`);

  const ada = await student(browser, cls.joinCode, 'Ada');
  await submit(ada.page, assessment.id, question!.id, 'in other words entirely');
  // Marked wrong at submission: 0%.
  await ada.page.goto(`/assessment/${assessment.id}`);
  await expect(ada.page.getByTestId('result-score')).toHaveText('0%');

  // The teacher grades it on the results page.
  await teacher.goto(`/assessment-results/${assessment.id}`);
  await teacher.getByRole('button', { name: `Grade ${ada.name}` }).click();
  const form = teacher.getByRole('form', { name: `Grade Q1 of ${ada.name}` });
  await form.getByLabel('Feedback for the student (optional)').fill('Right in other words: well explained.');
  await form.getByRole('button', { name: 'Mark right' }).click();
  await expect(form.getByRole('status')).toHaveText('Saved');
  const overall = teacher.getByRole('form', { name: 'Feedback on the whole result' });
  await overall.getByLabel('Feedback on the whole result').fill('Good work on the water cycle.');
  await overall.getByRole('button', { name: 'Save feedback' }).click();
  await expect(overall.getByRole('status')).toHaveText('Saved');
  // The results page follows (analytics takes the regrade from its event).
  const row = teacher
    .getByRole('region', { name: 'Student Results' })
    .getByRole('row')
    .filter({ has: teacher.getByRole('rowheader', { name: ada.name }) });
  await expect(row).toContainText('100%', { timeout: 15_000 });

  // The student sees the new score, the feedback on the result and on the answer.
  await ada.page.reload();
  await expect(ada.page.getByTestId('result-score')).toHaveText('100%');
  await expect(ada.page.getByTestId('result-feedback')).toContainText('Good work on the water cycle.');
  const review = ada.page.getByRole('region', { name: 'Review Your Answers' });
  await expect(review.getByTestId('review-mark')).toHaveText('Correct');
  await expect(review.getByTestId('review-feedback')).toHaveText(
    "Teacher's feedback: Right in other words: well explained.",
  );

  // From now on short answers off the key wait for the teacher: Ben's is listed and marked there.
  const put = await teacher.request.put(`/api/assessments/${assessment.id}`, {
    data: { reviewShortAnswers: true },
    headers: await csrfHeaders(teacher),
  });
  expect(put.ok()).toBeTruthy();
  const ben = await student(browser, cls.joinCode, 'Ben');
  await submit(ben.page, assessment.id, question!.id, 'a different wording');
  await ben.page.goto(`/assessment/${assessment.id}`);
  await expect(ben.page.getByTestId('result-pending')).toContainText('Your teacher will review one answer');
  await teacher.reload();
  const toReview = teacher.getByRole('region', { name: 'To Review (1)' });
  await expect(toReview).toContainText('a different wording');
  await toReview.getByLabel('Points (of 1.00)').fill('0.5');
  await toReview.getByRole('button', { name: 'Save mark' }).click();
  await expect(teacher.getByRole('region', { name: /To Review/ })).toHaveCount(0);
  await ben.page.reload();
  await expect(ben.page.getByTestId('result-score')).toHaveText('50%');
  await expect(ben.page.getByRole('region', { name: 'Review Your Answers' }).getByTestId('review-mark')).toHaveText(
    'Partly correct',
  );
});
