// How students are given an assessment, as the teacher sets it on the edit page: an open time
// ahead keeps students out with a plain sentence; a close time shows on the taking page; shuffled
// questions give each student their own order, the same after a reload; a time limit counts down
// from the server's figure.
import { expect } from '@playwright/test';
import { apiGet, checkA11y, test } from './helpers';
import { classroom, studentOf } from './journey';

const localInput = (d: Date) => {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

test('when the teacher sets an open time ahead, then the student is told it is not open; with a close time and shuffling, the student sees the close time and an order of their own that a reload keeps', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const c = await classroom(browser, { questionCount: 5 });
  const { page: student } = await studentOf(browser, c.cls.joinCode);

  // --- The teacher opens it tomorrow.
  const teacher = c.teacher;
  await teacher.goto(`/assessment-edit/${c.assessment.id}`);
  await teacher.getByLabel('Topic').fill('Cells'); // made through the API without one; the form requires it
  const tomorrow = new Date(Date.now() + 24 * 3600 * 1000);
  await teacher.getByLabel('Opens at').fill(localInput(tomorrow));
  await teacher.getByRole('button', { name: 'Save Details' }).click();
  await expect(teacher.getByText('Your changes have been saved.').first()).toBeVisible();
  await checkA11y(teacher, 'edit page with the window and order settings');

  await student.goto(`/assessment/${c.assessment.id}`);
  await expect(student.getByRole('heading', { name: 'Not Open Yet' })).toBeVisible();
  await checkA11y(student, 'taking page before the open time');

  // --- Open now, closing in two hours, questions shuffled.
  await teacher.getByLabel('Opens at').fill('');
  const closes = new Date(Date.now() + 2 * 3600 * 1000);
  closes.setSeconds(0, 0);
  await teacher.getByLabel('Closes at').fill(localInput(closes));
  await teacher.getByRole('checkbox', { name: 'Shuffle the questions' }).check();
  await teacher.getByLabel('Time limit (minutes)').fill('30');
  await teacher.getByRole('button', { name: 'Save Details' }).click();
  await expect
    .poll(async () =>
      apiGet<{ closesAt: string | null; shuffleQuestions: boolean }>(teacher, `/api/assessments/${c.assessment.id}`),
    )
    .toMatchObject({ closesAt: closes.toISOString(), shuffleQuestions: true, opensAt: null, timeLimitSeconds: 1800 });

  await student.goto(`/assessment/${c.assessment.id}`);
  const when = closes.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
  await expect(student.getByTestId('closes-at')).toHaveText(`Closes ${when}`);
  // The student's clock started when the questions were read: the server's time left counts down.
  await expect(student.getByRole('timer', { name: 'Time left' })).toHaveText(/^Time left (30:00|29:[0-5]\d)$/);
  const firstHeading = student.getByRole('heading', { level: 2 }).first();
  const before = await firstHeading.textContent();
  const order = (await apiGet<{ id: string }[]>(student, `/api/assessments/${c.assessment.id}/questions`)).map(
    (q) => q.id,
  );
  expect([...order].sort()).toEqual(c.questions.map((q) => q.id).sort());
  await student.reload();
  await expect(student.getByTestId('closes-at')).toBeVisible();
  expect(await firstHeading.textContent()).toBe(before);
  expect(
    (await apiGet<{ id: string }[]>(student, `/api/assessments/${c.assessment.id}/questions`)).map((q) => q.id),
  ).toEqual(order);
  // The teacher's own reads keep the teacher's order.
  expect(
    (await apiGet<{ id: string }[]>(teacher, `/api/assessments/${c.assessment.id}/questions`)).map((q) => q.id),
  ).toEqual(c.questions.map((q) => q.id));
});
