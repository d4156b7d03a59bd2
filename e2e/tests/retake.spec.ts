// A retake, as a teacher grants it: the assessment allows two attempts, the best counting; the
// student submits a weak first attempt, the teacher grants a retake from the results page after a
// confirmation, the student finds the assessment again and does better, and both the teacher's
// table and the student's result say which attempt counts.
import { expect } from '@playwright/test';
import { apiGet, checkA11y, csrfHeaders, test } from './helpers';
import { classroom, studentOf, submitted } from './journey';

test('when the teacher grants a retake, then the student takes the assessment again and the better attempt counts', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const c = await classroom(browser, { questionCount: 3 });
  const teacher = c.teacher;
  const settings = await teacher.request.put(`/api/assessments/${c.assessment.id}`, {
    data: { maxAttempts: 2, countedAttempt: 'best' },
    headers: await csrfHeaders(teacher),
  });
  expect(settings.status()).toBe(200);
  const { page: student, user } = await studentOf(browser, c.cls.joinCode);
  const name = `${user.firstName} ${user.lastName}`;
  await submitted(student, c, 1);

  // --- The teacher grants a retake, after confirming.
  await teacher.goto(`/assessment-results/${c.assessment.id}`);
  const table = teacher.getByRole('region', { name: 'Student Results' });
  const row = table.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('Attempt 1 (counts)');
  await row.getByRole('button', { name: `Retake for ${name}` }).click();
  const dialog = teacher.getByRole('dialog', { name: 'Grant a retake?' });
  await checkA11y(teacher, 'retake confirmation');
  await dialog.getByRole('button', { name: 'Grant Retake' }).click();
  await expect(teacher.getByText('Retake Granted').first()).toBeVisible();

  // --- The student finds it available again and does better.
  await expect
    .poll(
      async () =>
        (await apiGet<{ id: string }[]>(student, '/api/student/available-assessments')).some(
          (a) => a.id === c.assessment.id,
        ),
      { timeout: 15_000 },
    )
    .toBe(true);
  const second = await submitted(student, c, 3);
  await student.goto(`/assessment/${c.assessment.id}`);
  await expect(student.getByText('Attempt 2 of 2 · this attempt counts')).toBeVisible();

  // --- The teacher's table: the second attempt counts (the best); no third is left.
  await teacher.reload();
  await expect(table.getByRole('row', { name: new RegExp(name) })).toContainText('Attempt 2 (counts)');
  const refused = await teacher.request.post(`/api/results/${second}/retake`, { headers: await csrfHeaders(teacher) });
  expect(refused.status()).toBe(409);
});
