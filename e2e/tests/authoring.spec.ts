// Authoring: a teacher adds a question and marks its correct option by clicking it, sets
// points, adds a short answer with accepted alternatives, duplicates and reorders questions with
// the keyboard, sets a due date, assigns, and the list says "Assigned to <class>"; closing it moves
// it to the inactive list as Closed. A student's short answer with a plural ending counts as right.
import { expect, type Page } from '@playwright/test';
import { apiGet, apiPost, newUser, pageInNewContext, signUp, test, type QuestionJson } from './helpers';

const LESSON = [
  'Photosynthesis is the process plants use to turn light energy into chemical energy.',
  'Chlorophyll is the green pigment that absorbs sunlight inside the chloroplasts of leaf cells.',
  'Plants take in carbon dioxide from the air through small openings called stomata.',
  'Water travels from the roots to the leaves through tubes called xylem.',
  'During photosynthesis plants release oxygen into the atmosphere as a by-product.',
  'The sugar glucose made in the leaves gives the plant energy to grow.',
].join(' ');

type Question = QuestionJson & { points: string; acceptedAnswers?: string[]; position: number };

async function questionTexts(page: Page, id: string): Promise<string[]> {
  return (await apiGet<Question[]>(page, `/api/assessments/${id}/questions`)).map((q) => q.questionText);
}

test('teacher marks the key, sets points, adds alternatives, duplicates, reorders, sets a due date and assigns', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const teacher = await pageInNewContext(browser);
  await signUp(teacher, newUser('author-teacher'));
  const cls = await apiPost<{ id: string; joinCode: string }>(teacher, '/api/classes', {
    name: 'Biology 7',
    subject: 'Science',
    period: '2',
  });
  const student = await pageInNewContext(browser);
  await signUp(student, newUser('author-student'), 'Student');
  await apiPost(student, '/api/classes/join', { joinCode: cls.joinCode });

  const created = await apiPost<{ id: string }>(teacher, '/api/assessments', {
    title: 'Plant Parts',
    contentToAssess: LESSON,
    questionType: 'multiple_choice',
    numberOfQuestions: 1,
    classId: cls.id,
  });
  // Generation adds its question in the background: wait for it, so the list below is stable.
  await expect
    .poll(
      async () =>
        (await apiGet<{ generationStatus: string }>(teacher, `/api/assessments/${created.id}`)).generationStatus,
      {
        timeout: 30_000,
      },
    )
    .not.toBe('generating');
  const generatedCount = (await questionTexts(teacher, created.id)).length;

  // --- The list: a new assessment is a draft, and says students cannot see it yet.
  await teacher.goto('/assessments');
  const card = teacher.getByRole('article', { name: 'Plant Parts' });
  await expect(card.getByTestId('lifecycle-status')).toHaveText('Draft');
  await expect(card.getByText('Not assigned yet: students cannot see it until you assign it.')).toBeVisible();

  // --- Add a multiple choice question: the key is marked, not typed.
  await teacher.goto(`/assessment-edit/${created.id}`);
  await teacher.getByRole('button', { name: 'Add Question' }).click();
  let editor = teacher.getByRole('form', { name: 'Add Question' });
  await editor.getByLabel('Question Text').fill('Which part of the plant takes in water?');
  for (const [letter, text] of [
    ['A', 'Leaf'],
    ['B', 'Flower'],
    ['C', 'Root'],
    ['D', 'Seed'],
  ] as const)
    await editor.getByRole('textbox', { name: `Option ${letter}` }).fill(text);
  await editor.getByRole('button', { name: 'Add Question' }).click();
  await expect(editor.getByText('Mark the correct answer: choose one of the options')).toBeVisible();
  await editor.getByRole('radio', { name: 'Option C is correct' }).check();
  await editor.getByLabel('Points').fill('3');
  await editor.getByRole('button', { name: 'Add Question' }).click();
  await expect(teacher.getByText('Question Added')).toBeVisible();

  // --- Add a short answer with an accepted alternative.
  await teacher.getByRole('button', { name: 'Add Question' }).click();
  editor = teacher.getByRole('form', { name: 'Add Question' });
  await editor.getByLabel('Question Text').fill('Where in the cell does photosynthesis happen?');
  await editor.getByLabel('Question Type').selectOption('short_answer');
  await editor.getByLabel('Correct Answer').fill('chloroplast');
  await editor.getByLabel('Also Accept').fill('plastid');
  await editor.getByRole('button', { name: 'Add Question' }).click();
  await expect(teacher.getByRole('heading', { name: `Questions (${generatedCount + 2})` })).toBeVisible();

  const rootQ = generatedCount + 1;
  const shortQ = generatedCount + 2;
  let questions = await apiGet<Question[]>(teacher, `/api/assessments/${created.id}/questions`);
  expect(questions[rootQ - 1]).toMatchObject({ correctAnswer: 'Root', points: '3.00' });
  expect(questions[shortQ - 1]).toMatchObject({ correctAnswer: 'chloroplast', acceptedAnswers: ['plastid'] });

  // --- Duplicate the root question: the copy comes right after it.
  await teacher.getByRole('button', { name: `Duplicate Question ${rootQ}` }).click();
  await expect(teacher.getByText(`A copy of question ${rootQ} was added after it.`)).toBeVisible();
  await expect(teacher.getByRole('heading', { name: `Questions (${generatedCount + 3})` })).toBeVisible();
  const texts = await questionTexts(teacher, created.id);
  expect(texts[rootQ]).toBe('Which part of the plant takes in water?');

  // --- Move the short answer (now last) to the top with the keyboard.
  let position = generatedCount + 3;
  while (position > 1) {
    const up = teacher.getByRole('button', { name: `Move question ${position} up` });
    await up.focus();
    await teacher.keyboard.press('Enter');
    position -= 1;
    await expect(teacher.getByText(`Question moved to position ${position} of ${generatedCount + 3}.`)).toBeAttached();
  }
  await expect(teacher.getByRole('button', { name: 'Move question 1 down' })).toBeFocused();
  expect((await questionTexts(teacher, created.id))[0]).toBe('Where in the cell does photosynthesis happen?');

  // --- A due date (the details form asks for a topic first: the lesson text is not one).
  await teacher.getByLabel('Topic').fill('');
  await teacher.getByRole('button', { name: 'Save Details' }).click();
  await expect(teacher.getByText('Topic is required')).toBeVisible();
  await teacher.getByLabel('Topic').fill('Plant parts');
  const due = new Date(Date.now() + 7 * 24 * 3600 * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const local = `${due.getFullYear()}-${pad(due.getMonth() + 1)}-${pad(due.getDate())}T15:30`;
  await teacher.getByLabel('Due Date').fill(local);
  await teacher.getByRole('button', { name: 'Save Details' }).click();
  await expect(teacher.getByText('Assessment Updated')).toBeVisible();
  const saved = await apiGet<{ dueDate: string }>(teacher, `/api/assessments/${created.id}`);
  expect(new Date(saved.dueDate).getHours()).toBe(15);

  // --- Assign from the preview; the list says to whom, with the due date.
  await teacher.getByRole('link', { name: /Back to Preview/ }).click();
  await teacher.getByRole('button', { name: 'Assign to Students' }).click();
  await expect(teacher.getByText('Assessment Assigned!')).toBeVisible();
  await expect(teacher.getByRole('button', { name: 'Assigned', exact: true })).toBeDisabled();
  await teacher.goto('/assessments');
  await expect(card.getByTestId('lifecycle-status')).toHaveText('Assigned to Biology 7');
  await expect(card.getByText('Due:')).toBeVisible();
  await expect(card.getByText('Past due')).toHaveCount(0);

  // --- The student answers the short answer with a plural; it is marked right.
  questions = await apiGet<Question[]>(student, `/api/assessments/${created.id}/questions`);
  await apiPost(student, '/api/responses', {
    assessmentId: created.id,
    questionId: questions[0]!.id,
    answer: ' Chloroplasts. ',
  });
  const result = await apiPost<{ questions: { correct: boolean }[] }>(student, '/api/results', {
    assessmentId: created.id,
  });
  expect(result.questions[0]!.correct).toBe(true);

  // --- Now the key is fixed: the edit page says so and offers no delete.
  await teacher.goto(`/assessment-edit/${created.id}`);
  await expect(teacher.getByText(/Students have already submitted this assessment/)).toBeVisible();
  await expect(teacher.getByRole('button', { name: 'Delete Question 1' })).toBeDisabled();

  // --- Closing it (the spec's Deactivate) moves it to the inactive list as Closed.
  await teacher.goto(`/assessment-preview/${created.id}`);
  await teacher.getByRole('button', { name: 'Preview', exact: true }).click();
  await teacher.getByRole('dialog').getByRole('button', { name: 'Deactivate' }).click();
  await expect(teacher.getByText('Assessment Deactivated')).toBeVisible();
  await teacher.goto('/assessments');
  await teacher.getByRole('button', { name: 'Show Inactive Only' }).click();
  await expect(card.getByTestId('lifecycle-status')).toHaveText('Closed');
});
