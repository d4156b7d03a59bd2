// Taking an assessment, and where the taking page puts the focus: every answer is
// saved to the server as the student works (no Save Progress needed), so another device finds
// them; the navigator says which questions are answered; the focus follows the student to each
// question; a closed assessment says so instead of showing the form; Submit warns about unanswered
// questions and asks to confirm; after submitting the focus is on the result's heading.
import { expect, type Page } from '@playwright/test';
import { apiGet, apiPost, checkA11y, csrfHeaders, newUser, pageInNewContext, signIn, signUp, test } from './helpers';

const LESSON = [
  'Photosynthesis is the process plants use to turn light energy into chemical energy.',
  'Chlorophyll is the green pigment that absorbs sunlight inside the chloroplasts of leaf cells.',
  'Plants take in carbon dioxide from the air through small openings called stomata.',
  'Water travels from the roots to the leaves through tubes called xylem.',
  'Sugar made in the leaves moves to the rest of the plant through tubes called phloem.',
  'Oxygen leaves the plant through the stomata as a product of photosynthesis.',
  'Without sunlight, a plant cannot make the glucose it needs to grow.',
  'Animals depend on the oxygen and food that plants produce.',
].join(' ');

const QUESTIONS = 3;

interface SavedResponse {
  questionId: string;
  answer: string;
}

const saveStatus = (page: Page) => page.getByTestId('save-status');
const navButton = (page: Page, n: number, answered: boolean) =>
  page
    .getByRole('navigation', { name: 'Questions' })
    .getByRole('button', { name: `Question ${n}, ${answered ? 'answered' : 'not answered'}`, exact: true });

test('when a student answers, then each answer is saved as they go and found on another device, closing the assessment is said plainly, and Submit warns about unanswered questions', async ({
  browser,
}) => {
  test.setTimeout(120_000);

  // --- A class, a short-answer assessment assigned to it, a student in the class.
  const teacher = await pageInNewContext(browser);
  await signUp(teacher, newUser('taking-teacher'));
  const cls = await apiPost<{ id: string; joinCode: string }>(teacher, '/api/classes', {
    name: 'Taking 7',
    subject: 'Science',
    period: '2',
  });
  const studentUser = newUser('taking-student');
  const student = await pageInNewContext(browser);
  await signUp(student, studentUser, 'Student');
  await apiPost(student, '/api/classes/join', { joinCode: cls.joinCode });
  const title = 'Plants Autosave Check';
  const { id } = await apiPost<{ id: string }>(teacher, '/api/assessments', {
    title,
    contentToAssess: LESSON,
    questionType: 'short_answer',
    numberOfQuestions: QUESTIONS,
    description: 'Saved as you go',
    classId: cls.id,
  });
  await expect
    .poll(
      async () => (await apiGet<{ generationStatus: string }>(teacher, `/api/assessments/${id}`)).generationStatus,
      { timeout: 30_000 },
    )
    .toBe('ready');
  await apiPost(teacher, `/api/assessments/${id}/assign`);
  const questions = await apiGet<{ id: string; questionText: string }[]>(teacher, `/api/assessments/${id}/questions`);
  expect(questions).toHaveLength(QUESTIONS);

  // --- The student answers the first two questions; each is saved without pressing anything.
  await student.goto(`/assessment/${id}`);
  await expect(student.getByText(`Question 1 of ${QUESTIONS}`)).toBeVisible();
  await expect(navButton(student, 1, false)).toHaveAttribute('aria-current', 'step');
  await student.getByLabel('Your answer').fill('chlorophyll');
  await expect(saveStatus(student)).toHaveText('Saved');
  await expect(navButton(student, 1, true)).toBeVisible();
  await student.getByRole('button', { name: 'Next' }).click();
  // The focus moves to the new question's heading (read out), not left on Next.
  await expect(
    student.getByRole('heading', { level: 2, name: `Question 2: ${questions[1]!.questionText}` }),
  ).toBeFocused();
  await student.getByLabel('Your answer').fill('stomata');
  await expect(saveStatus(student)).toHaveText('Saved');
  await checkA11y(student, 'taking page, answers saved');

  const saved = await apiGet<SavedResponse[]>(student, `/api/assessments/${id}/responses`);
  expect(Object.fromEntries(saved.map((r) => [r.questionId, r.answer]))).toEqual({
    [questions[0]!.id]: 'chlorophyll',
    [questions[1]!.id]: 'stomata',
  });

  // --- Another device (a browser of its own, signed in as the same student) finds the answers.
  const otherDevice = await pageInNewContext(browser);
  await signIn(otherDevice, studentUser);
  await otherDevice.goto(`/assessment/${id}`);
  await expect(navButton(otherDevice, 1, true)).toBeVisible();
  await expect(navButton(otherDevice, 2, true)).toBeVisible();
  await expect(navButton(otherDevice, 3, false)).toBeVisible();
  await expect(otherDevice.getByLabel('Your answer')).toHaveValue('chlorophyll');
  await navButton(otherDevice, 2, true).click();
  await expect(
    otherDevice.getByRole('heading', { level: 2, name: `Question 2: ${questions[1]!.questionText}` }),
  ).toBeFocused();
  await expect(otherDevice.getByLabel('Your answer')).toHaveValue('stomata');

  // --- The teacher closes the assessment: the first device's next save is refused and the form
  // gives way to a sentence saying so; opening it again says the same. Reopened, it is back.
  const setActive = async (isActive: boolean) => {
    const res = await teacher.request.put(`/api/assessments/${id}`, {
      data: { isActive },
      headers: await csrfHeaders(teacher),
    });
    expect(res.ok(), `PUT isActive=${isActive}: ${res.status()}`).toBeTruthy();
  };
  await setActive(false);
  await student.getByLabel('Your answer').fill('stomata and roots');
  await expect(student.getByRole('heading', { name: 'Assessment Closed' })).toBeFocused();
  await expect(student.getByText(/Your teacher has closed this assessment/)).toBeVisible();
  await otherDevice.reload();
  await expect(otherDevice.getByRole('heading', { name: 'Assessment Closed' })).toBeVisible();
  await checkA11y(otherDevice, 'closed assessment');
  await setActive(true);
  await otherDevice.reload();
  await expect(otherDevice.getByLabel('Your answer')).toHaveValue('stomata');

  // --- Submit from the last question with it unanswered: a warning lists it, with a way back.
  await navButton(otherDevice, 3, false).click();
  await otherDevice.getByRole('button', { name: 'Submit Assessment' }).click();
  const warning = otherDevice.getByRole('dialog', { name: 'Some questions have no answer' });
  await expect(warning).toContainText(`You have not answered 1 of ${QUESTIONS} questions.`);
  await expect(warning.getByRole('list', { name: 'Unanswered questions' })).toContainText(
    `Question 3: ${questions[2]!.questionText}`,
  );
  await expect(warning.getByRole('button', { name: 'Submit anyway' })).toBeVisible();
  await checkA11y(otherDevice, 'submit warning dialog');
  await warning.getByRole('button', { name: 'Go to question 3' }).click();
  await expect(warning).toBeHidden();
  await expect(
    otherDevice.getByRole('heading', { level: 2, name: `Question 3: ${questions[2]!.questionText}` }),
  ).toBeFocused();
  await otherDevice.getByLabel('Your answer').fill('xylem');

  // --- Everything answered: still a confirm; then the result, its heading focused.
  await otherDevice.getByRole('button', { name: 'Submit Assessment' }).click();
  const confirm = otherDevice.getByRole('dialog', { name: 'Submit your answers?' });
  await expect(confirm).toContainText(`You answered all ${QUESTIONS} questions.`);
  await confirm.getByRole('button', { name: 'Submit now' }).click();
  await expect(otherDevice.getByText('Assessment submitted successfully!')).toBeVisible();
  await expect(otherDevice.getByRole('heading', { level: 1, name: title })).toBeFocused();
  await expect(otherDevice.getByTestId('result-score')).toBeVisible();
  await checkA11y(otherDevice, 'result after submit');

  // The result holds every answer, the ones typed on the first device included.
  const [result] = await apiGet<{ id: string }[]>(otherDevice, '/api/student/results');
  const detail = await apiGet<{ questions: { answer: string | null }[] }>(otherDevice, `/api/results/${result!.id}`);
  expect(detail.questions.map((q) => q.answer)).toEqual(['chlorophyll', 'stomata', 'xylem']);
});
