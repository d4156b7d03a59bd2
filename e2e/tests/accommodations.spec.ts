// A student's accommodations, set by their teacher and applied where the student takes the
// assessment (#32 item 1): the teacher sets fewer answer choices, large text and answer masking for
// one student on the class page; that student sees fewer options (from the server), larger text
// and each option masked until revealed; a classmate sees none of that, and cannot read the
// student's accommodations. Both submit: the result keeps the options the student saw, and the item
// statistics and the item analysis export say how many were shown each option. A third student's
// high contrast, line guide and read aloud pass axe.
import { expect } from '@playwright/test';
import { apiGet, apiPost, checkA11y, csrfHeaders, test } from './helpers';
import { classroom, studentOf, submitted } from './journey';

test('when the teacher sets reduced choices, large text and answer masking for one student, then that student alone takes the assessment with them', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const c = await classroom(browser, { questionCount: 2 });
  const accommodated = await studentOf(browser, c.cls.joinCode);
  const classmate = await studentOf(browser, c.cls.joinCode);
  const nameOf = (u: { firstName: string; lastName: string }) => `${u.firstName} ${u.lastName}`;
  const teacher = c.teacher;

  // --- Both students are in the class's list once the assessment service has heard of them.
  await expect
    .poll(
      async () =>
        (
          await apiGet<{ firstName: string; lastName: string }[]>(teacher, `/api/classes/${c.cls.id}/accommodations`)
        ).map(nameOf),
      { timeout: 20_000, intervals: [250, 500, 1_000] },
    )
    .toEqual(expect.arrayContaining([nameOf(accommodated.user), nameOf(classmate.user)]));

  // --- The teacher, on the class page: the section, the dialog, saved.
  await teacher.goto(`/class/${c.cls.id}`);
  const section = teacher.getByRole('table', { name: 'Accommodations' });
  await expect(section.getByRole('row')).toHaveCount(3);
  await teacher.getByRole('button', { name: `Edit accommodations of ${nameOf(accommodated.user)}` }).click();
  const dialog = teacher.getByRole('dialog', { name: `Accommodations of ${nameOf(accommodated.user)}` });
  await dialog.getByLabel('Fewer answer choices').selectOption({ label: 'Remove 2 wrong choices' });
  await dialog.getByRole('checkbox', { name: 'Large text' }).check();
  await dialog.getByRole('checkbox', { name: 'Answer masking' }).check();
  await checkA11y(teacher, 'the accommodations dialog');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const row = section.getByRole('row').filter({ hasText: nameOf(accommodated.user) });
  await expect(row).toContainText('Fewer answer choices (remove 2), Large text, Answer masking');
  await expect(section.getByRole('row').filter({ hasText: nameOf(classmate.user) })).toContainText('None');

  // --- The classmate: every option, shown, at the usual size; no way to read anyone's accommodations.
  const options = c.questions[0]!.options?.length ?? 0;
  expect(options).toBeGreaterThanOrEqual(3);
  await classmate.page.goto(`/assessment/${c.assessment.id}`);
  const classmateChoices = classmate.page.getByRole('group', { name: 'Answer choices' });
  await expect(classmateChoices.getByRole('radio')).toHaveCount(options);
  await expect(classmate.page.getByRole('button', { name: /Show choice/ })).toHaveCount(0);
  await expect(classmate.page.locator('html')).not.toHaveClass(/acc-large-text/);
  const rootSize = (p: typeof teacher) =>
    p.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));
  expect(await rootSize(classmate.page)).toBe(16);
  const mine = await classmate.page.request.get('/api/student/accommodations');
  expect(await mine.json()).toMatchObject({ reducedChoices: 0, largeText: false, answerMasking: false });
  const theirs = await classmate.page.request.get(
    `/api/classes/${c.cls.id}/students/${(await apiGet<{ id: string }>(accommodated.page, '/api/auth/user')).id}/accommodations`,
  );
  expect(theirs.status()).toBe(403);

  // --- The accommodated student: two fewer options (the key among them), larger text, each masked.
  const student = accommodated.page;
  await student.goto(`/assessment/${c.assessment.id}`);
  const choices = student.getByRole('group', { name: 'Answer choices' });
  await expect(choices.getByRole('button', { name: /^Show choice \d$/ })).toHaveCount(options - 2);
  await expect(choices.getByRole('radio')).toHaveCount(0);
  await expect(student.locator('html')).toHaveClass(/acc-large-text/);
  expect(await rootSize(student)).toBeGreaterThan(16);
  await checkA11y(student, 'a masked question in large text');
  for (let i = 1; i <= options - 2; i++)
    await choices
      .getByRole('button', { name: `Show choice ${i}` })
      .first()
      .click();
  await expect(choices.getByRole('radio')).toHaveCount(options - 2);
  const seen = await apiGet<{ id: string; options: string[] }[]>(
    student,
    `/api/assessments/${c.assessment.id}/questions`,
  );
  const key = c.questions.find((q) => q.id === seen[0]!.id)!.correctAnswer!;
  expect(seen[0]!.options).toHaveLength(options - 2);
  expect(seen[0]!.options).toContain(key);
  await expect(choices.getByRole('radio', { name: key, exact: true })).toBeVisible();
  await checkA11y(student, 'revealed choices in large text');

  // --- Both submit: the accommodated student's result keeps the options they saw; the item
  // statistics and the item analysis export count, per option, who was shown it.
  await choices.getByRole('radio', { name: key, exact: true }).check();
  await expect(student.getByText(/Saved/).first()).toBeVisible();
  for (const q of seen.slice(1))
    await apiPost(student, '/api/responses', {
      assessmentId: c.assessment.id,
      questionId: q.id,
      answer: c.questions.find((x) => x.id === q.id)!.correctAnswer!,
    });
  const result = await apiPost<{
    id: string;
    earnedPoints: string;
    questions: { questionId: string; shownOptions: string[] | null; correct: boolean }[];
  }>(student, '/api/results', { assessmentId: c.assessment.id });
  for (const q of result.questions) {
    expect([...q.shownOptions!].sort()).toEqual([...seen.find((x) => x.id === q.questionId)!.options].sort());
    expect(q.correct).toBe(true);
  }
  await submitted(classmate.page, c, 0);
  const hidden = seen.flatMap((q) =>
    c.questions.find((x) => x.id === q.id)!.options!.filter((o) => !q.options.includes(o)),
  );
  expect(hidden).toHaveLength(2 * c.questions.length);

  await teacher.goto(`/assessment-results/${c.assessment.id}`);
  const statistics = teacher.getByRole('region', { name: 'Item Statistics' });
  // Each option hidden from the accommodated student was shown to the classmate alone.
  await expect(statistics.getByText(/of 1 who saw it/)).toHaveCount(hidden.length, { timeout: 20_000 });
  for (const option of hidden)
    await expect(
      statistics
        .getByRole('listitem')
        .filter({ hasText: `${option}:` })
        .first(),
    ).toContainText('of 1 who saw it');
  const csv = await teacher.request.get(`/api/assessments/${c.assessment.id}/item-analysis`);
  expect(csv.status()).toBe(200);
  const shownTo = (await csv.text())
    .trim()
    .split(/\r?\n/)
    .slice(1)
    .map((line) => line.split(',').at(-1));
  expect(shownTo.sort()).toEqual([...hidden.map(() => '1'), ...hidden.map(() => '2')]);

  // --- Another student with high contrast, the line guide and read aloud (set through the API).
  const third = await studentOf(browser, c.cls.joinCode);
  const thirdId = (await apiGet<{ id: string }>(third.page, '/api/auth/user')).id;
  await expect
    .poll(
      async () =>
        (
          await teacher.request.put(`/api/classes/${c.cls.id}/students/${thirdId}/accommodations`, {
            data: { highContrast: true, lineGuide: true, readAloud: true },
            headers: await csrfHeaders(teacher),
          })
        ).status(),
      { timeout: 20_000, intervals: [250, 500, 1_000] },
    )
    .toBe(200);
  await third.page.goto(`/assessment/${c.assessment.id}`);
  await expect(third.page.locator('html')).toHaveClass(/acc-high-contrast/);
  await expect(third.page.getByRole('button', { name: 'Read aloud question 1' })).toBeVisible();
  await expect(third.page.getByRole('group', { name: 'Answer choices' }).getByRole('radio')).toHaveCount(options);
  await third.page.getByRole('radio').first().focus();
  await expect(third.page.getByTestId('line-guide')).toBeAttached();
  await checkA11y(third.page, 'high contrast, line guide and read aloud');
});
