// One assessment for two periods: the teacher gives the assessment of their first class to one
// chosen student of their second class too; that student finds it and takes it, a classmate not
// chosen does not; the results page shows each class's results apart and together, and follows
// both classes live: the second class's submit shows without a reload.
import { expect } from '@playwright/test';
import { apiGet, apiPost, checkA11y, test } from './helpers';
import { classroom, studentOf, submitted } from './journey';

test('when the teacher assigns an assessment to a chosen student of a second class, then only that student takes it and the results show both classes', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const c = await classroom(browser, { questionCount: 3 });
  const teacher = c.teacher;
  const period5 = await apiPost<{ id: string; name: string; joinCode: string }>(teacher, '/api/classes', {
    name: `${c.cls.name} P5`,
    subject: 'Science',
    period: '5',
  });
  const { page: first } = await studentOf(browser, c.cls.joinCode);
  const { page: chosen, user: chosenUser } = await studentOf(browser, period5.joinCode);
  const { page: other } = await studentOf(browser, period5.joinCode);
  // Both second-period students are on the roster before the teacher chooses.
  await expect
    .poll(async () => (await apiGet<unknown[]>(teacher, `/api/classes/${period5.id}/students`)).length, {
      timeout: 15_000,
    })
    .toBe(2);

  // --- The teacher chooses one student of the second period.
  await teacher.goto(`/assessment-preview/${c.assessment.id}`);
  await teacher.getByRole('button', { name: 'Assign to classes or students…' }).click();
  const dialog = teacher.getByRole('dialog', { name: 'Assign to classes or students' });
  await expect(dialog.getByTestId('assigned-to')).toContainText('(whole class)');
  await dialog.getByLabel(`${period5.name} - Period 5`).check();
  await dialog.getByLabel('Only the students I choose').check();
  await dialog.getByLabel(`${chosenUser.firstName} ${chosenUser.lastName}`).check();
  await checkA11y(teacher, 'assign dialog with chosen students');
  await dialog.getByRole('button', { name: 'Assign' }).click();
  await expect(teacher.getByText('Assessment assigned to 2 students').first()).toBeVisible();
  await expect(teacher.getByTestId('lifecycle-status')).toHaveText(
    `Assigned to ${c.cls.name}, ${period5.name} (1 student)`,
  );

  // --- The chosen student finds it on their dashboard and opens it; the classmate does not.
  await chosen.goto('/student-dashboard');
  await expect(chosen.getByText(c.assessment.title).first()).toBeVisible();
  await chosen.goto(`/assessment/${c.assessment.id}`);
  await expect(chosen.getByRole('heading', { name: c.assessment.title })).toBeVisible();
  const refused = await other.request.get(`/api/assessments/${c.assessment.id}`);
  expect(refused.status()).toBe(404);

  await submitted(first, c, 1);

  // --- The results page, open while the second class's chosen student submits: one live stream
  // follows both classes, and the submit shows without a reload.
  const live = teacher.waitForResponse(
    (r) => r.url().includes('/api/dashboard/live') && r.url().includes(period5.id) && r.url().includes(c.cls.id),
  );
  await teacher.goto(`/assessment-results/${c.assessment.id}`);
  const byClass = teacher.getByRole('region', { name: 'By Class' });
  await expect(byClass.getByRole('row')).toHaveCount(3);
  const period5Row = byClass.getByRole('row', { name: new RegExp(`${period5.name}`) });
  await expect(period5Row).toContainText('0 / 1');
  expect((await live).status()).toBe(200);
  await submitted(chosen, c, 3);
  await expect(period5Row).toContainText('1 / 1', { timeout: 20_000 });

  // --- The results: both classes, each result with its class, one class at a time on demand.
  const table = teacher.getByRole('region', { name: 'Student Results' });
  await expect(table.getByRole('row')).toHaveCount(3);
  await byClass.getByLabel('Show students of').selectOption({ label: period5.name });
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row').nth(1)).toContainText(period5.name);
  await checkA11y(teacher, 'results of an assessment of two classes');
});
