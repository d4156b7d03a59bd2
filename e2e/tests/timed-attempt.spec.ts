// A student through a shuffled, timed attempt that runs out of time: the teacher shuffles the
// questions and their options and sets the smallest time limit (one minute); the student finds
// their own order, the same after a reload, answers two questions (saved as they go) and never
// submits; the page counts the time left down and, at zero, submits what was saved; the student
// sees those answers scored, and the teacher sees the submitted result. Real time passes (about a
// minute): the server's clock is never faked.
import { expect } from '@playwright/test';
import { apiGet, checkA11y, test, type QuestionJson } from './helpers';
import { classroom, studentOf } from './journey';

const seconds = (text: string | null) => {
  const m = /^Time left (\d+):(\d\d)$/.exec(text ?? '');
  expect(m, `a time left, not "${text}"`).not.toBeNull();
  return Number(m?.[1]) * 60 + Number(m?.[2]);
};

test('when a shuffled, timed attempt runs out of time, then what the student saved is submitted and scored for both the student and the teacher', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const c = await classroom(browser, { questionCount: 4 });
  const { page: student, user } = await studentOf(browser, c.cls.joinCode);
  const name = `${user.firstName} ${user.lastName}`;

  // --- The teacher shuffles questions and options and gives one minute (the least the server takes).
  const teacher = c.teacher;
  await teacher.goto(`/assessment-edit/${c.assessment.id}`);
  await teacher.getByLabel('Topic').fill('Cells'); // made through the API without one; the form requires it
  await teacher.getByRole('checkbox', { name: 'Shuffle the questions' }).check();
  await teacher.getByRole('checkbox', { name: 'Shuffle the answer options of multiple-choice questions' }).check();
  await teacher.getByLabel('Time limit (minutes)').fill('1');
  await teacher.getByRole('button', { name: 'Save Details' }).click();
  await expect(teacher.getByText('Your changes have been saved.').first()).toBeVisible();
  await expect
    .poll(async () => apiGet<Record<string, unknown>>(teacher, `/api/assessments/${c.assessment.id}`))
    .toMatchObject({ shuffleQuestions: true, shuffleOptions: true, timeLimitSeconds: 60 });

  // --- The student opens it: the clock starts on the server, and the page counts down from its figure.
  await student.goto(`/assessment/${c.assessment.id}`);
  await expect(student.getByRole('heading', { name: c.assessment.title })).toBeVisible();
  const timer = student.getByRole('timer', { name: 'Time left' });
  await expect(timer).toHaveText(/^Time left (1:00|0:[0-5]\d)$/);
  const heading = student.getByRole('heading', { level: 2 }).first();
  const firstText = await heading.textContent();
  const order = (await apiGet<{ id: string }[]>(student, `/api/assessments/${c.assessment.id}/questions`)).map(
    (q) => q.id,
  );
  expect([...order].sort()).toEqual(c.questions.map((q) => q.id).sort());

  // --- A reload keeps the student's order (and the clock goes on: it is the server's).
  const beforeReload = seconds(await timer.textContent());
  await student.reload();
  await expect(timer).toHaveText(/^Time left (1:00|0:[0-5]\d)$/);
  expect(await heading.textContent()).toBe(firstText);
  expect(
    (await apiGet<{ id: string }[]>(student, `/api/assessments/${c.assessment.id}/questions`)).map((q) => q.id),
  ).toEqual(order);
  expect(seconds(await timer.textContent())).toBeLessThanOrEqual(beforeReload);

  // --- Two answers, right ones, saved as the student goes; the other two are left blank.
  const shown = (text: string | null): QuestionJson => {
    const q = c.questions.find((candidate) => (text ?? '').includes(candidate.questionText));
    expect(q, `the question shown: ${text}`).toBeDefined();
    return q as QuestionJson;
  };
  for (const step of [0, 1]) {
    const q = shown(await heading.textContent());
    expect(q.id).toBe(order[step]);
    await student.getByRole('radio', { name: q.correctAnswer ?? '', exact: true }).check();
    await expect(student.getByTestId('save-status')).toHaveText('Saved', { timeout: 15_000 });
    if (step === 0) await student.getByRole('button', { name: 'Next', exact: true }).click();
  }
  const saved = await apiGet<{ questionId: string }[]>(student, `/api/assessments/${c.assessment.id}/responses`);
  expect(saved.map((r) => r.questionId).sort()).toEqual(order.slice(0, 2).sort());
  await checkA11y(student, 'a timed attempt counting down');

  // --- The time left goes down as the student waits.
  const now = seconds(await timer.textContent());
  await expect.poll(async () => seconds(await timer.textContent()), { timeout: 5_000 }).toBeLessThan(now);

  // --- At zero the page submits what was saved: two right of four.
  const result = student.getByRole('heading', { name: c.assessment.title, level: 1 });
  await expect(student.getByTestId('result-score')).toHaveText('50%', { timeout: 90_000 });
  await expect(result).toBeVisible();
  await expect(student.getByText('2 correct · 2 incorrect')).toBeVisible();
  await checkA11y(student, 'the result of a timed attempt submitted at time up');
  const stored = await apiGet<{ assessmentId: string; correctAnswers: number }[]>(student, '/api/student/results');
  expect(stored.filter((r) => r.assessmentId === c.assessment.id)).toMatchObject([{ correctAnswers: 2 }]);

  // --- The teacher sees the submitted result.
  await teacher.goto(`/assessment-results/${c.assessment.id}`);
  const row = teacher.getByRole('region', { name: 'Student Results' }).getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('50%');
});
