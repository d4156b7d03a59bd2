// Assessment journeys: a teacher creates an assessment (offline provider: no OpenAI key in
// tests), edits a question and assigns it; a student takes it, reloads mid-way without losing
// answers, submits and sees the level; then completes support practice at 80+ and the level shows
// at standard. Class setup goes through the API (page.request with the CSRF cookie) to stay fast.
import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { checkA11y, newUser, signUp, wrongAnswer, type QuestionJson, test } from './helpers';

const LESSON = [
  'Photosynthesis is the process plants use to turn light energy into chemical energy.',
  'Chlorophyll is the green pigment that absorbs sunlight inside the chloroplasts of leaf cells.',
  'Plants take in carbon dioxide from the air through small openings called stomata.',
  'Water travels from the roots to the leaves through tubes called xylem.',
  'During photosynthesis plants release oxygen into the atmosphere as a by-product.',
  'The sugar glucose made in the leaves gives the plant energy to grow.',
].join(' ');

interface MaterialJson {
  questions: { id: string; question: string; type: string; options: string[]; correctAnswer?: string }[];
}

async function csrfHeaders(page: Page): Promise<Record<string, string>> {
  const cookies = await page.context().cookies();
  const token = cookies.find((c) => c.name === 'cp_csrf')?.value;
  expect(token, 'CSRF cookie').toBeTruthy();
  return { 'X-CSRF-Token': decodeURIComponent(token ?? '') };
}

async function postJson<T>(page: Page, url: string, data: unknown): Promise<T> {
  const request: APIRequestContext = page.request;
  const response = await request.post(url, { data, headers: await csrfHeaders(page) });
  expect(response.ok(), `${url}: ${response.status()} ${await response.text()}`).toBeTruthy();
  return (await response.json()) as T;
}

async function getJson<T>(page: Page, url: string): Promise<T> {
  const response = await page.request.get(url);
  expect(response.ok(), `${url}: ${response.status()} ${await response.text()}`).toBeTruthy();
  return (await response.json()) as T;
}

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

async function answerOnPage(page: Page, type: string, answer: string): Promise<void> {
  if (type === 'short_answer') await page.getByLabel('Your answer').fill(answer);
  else await page.getByLabel(answer, { exact: true }).check();
}

test('teacher creates, edits and assigns; student takes it across a reload, then practice lifts the level', async ({
  browser,
}) => {
  test.setTimeout(180_000);

  // --- Teacher: sign up, a class through the API.
  const teacher = await newPage(browser);
  await signUp(teacher, newUser('assess-teacher'));
  const cls = await postJson<{ id: string; joinCode: string }>(teacher, '/api/classes', {
    name: 'Biology 7',
    subject: 'Science',
    period: '2',
  });

  // --- Student: sign up and join by code through the API.
  const student = await newPage(browser);
  await signUp(student, newUser('assess-student'), 'Student');
  await postJson(student, '/api/classes/join', { joinCode: cls.joinCode });

  // --- Teacher creates the assessment in the modal (class chosen in the modal).
  await teacher.goto('/assessments');
  await expect(teacher.getByRole('heading', { name: 'No assessments yet' })).toBeVisible();
  await teacher.getByRole('button', { name: 'Create Assessment' }).first().click();
  const dialog = teacher.getByRole('dialog');
  await expect(dialog.getByLabel('Number of questions')).toHaveValue('10');
  await dialog.getByRole('button', { name: 'Create Assessment' }).click();
  await expect(dialog.getByText('Title is required')).toBeVisible();
  await checkA11y(teacher, 'create assessment dialog with errors');
  await expect(dialog.getByText('Content to be assessed is required')).toBeVisible();
  await dialog.getByLabel('Title').fill('Photosynthesis Check');
  await dialog.getByLabel('Content to assess').fill(LESSON);
  await dialog.getByLabel('Question type').selectOption('multiple_choice');
  await dialog.getByLabel('Number of questions').fill('21');
  await dialog.getByRole('button', { name: 'Create Assessment' }).click();
  await expect(dialog.getByText('Maximum 20 questions')).toBeVisible();
  await dialog.getByLabel('Number of questions').fill('4');
  await dialog.getByLabel('Description').fill('How plants make food');
  await dialog.getByRole('button', { name: 'Create Assessment' }).click();
  await expect(dialog.getByText('No class selected')).toBeVisible();
  await dialog.getByLabel('Class').selectOption({ label: 'Biology 7' });
  await dialog.getByRole('button', { name: 'Create Assessment' }).click();

  // No model key: rules built the questions from the text, and nothing claims AI.
  await expect(teacher.getByText('Assessment created successfully with questions built from your text.')).toBeVisible({
    timeout: 30_000,
  });
  await expect(teacher).toHaveURL(/\/assessment-preview\/[0-9a-f-]+$/);
  const assessmentId = teacher.url().split('/').pop() ?? '';
  await expect(teacher.getByText('Successfully Created with Questions Built from Your Text!')).toBeVisible();
  await expect(teacher.getByText(/Questions built from your text/)).toBeVisible();
  await expect(teacher.getByText(/AI Questions|AI-generated/)).toHaveCount(0);
  await expect(teacher.getByTestId('question-preview')).toHaveCount(3);
  await expect(teacher.getByText('+ 1 more questions created')).toBeVisible();

  // --- Edit the first question's text.
  await teacher.getByRole('link', { name: 'Edit Questions' }).click();
  await expect(teacher.getByRole('heading', { name: 'Edit Assessment' })).toBeVisible();
  await teacher.getByRole('button', { name: 'Edit Question 1' }).click();
  const editor = teacher.getByRole('form', { name: 'Save Question' });
  await editor.getByLabel('Question Text').fill('');
  await editor.getByRole('button', { name: 'Save Question' }).click();
  await expect(editor.getByText('Question text is required')).toBeVisible();
  await editor.getByLabel('Question Text').fill('Which pigment absorbs sunlight in leaves?');
  await editor.getByRole('button', { name: 'Save Question' }).click();
  await expect(teacher.getByText('Question Updated')).toBeVisible();
  await expect(teacher.getByText('1. Which pigment absorbs sunlight in leaves?')).toBeVisible();

  // --- Back to the preview and assign.
  await teacher.getByRole('link', { name: /Back to Preview/ }).click();
  await expect(teacher.getByText('1. Which pigment absorbs sunlight in leaves?')).toBeVisible();
  await teacher.getByRole('button', { name: 'Assign to Students' }).click();
  await expect(teacher.getByText('Assessment Assigned!')).toBeVisible();
  await teacher.goto('/assessments');
  await expect(teacher.getByTestId('responses-badge')).toHaveText('Responses 0 / 1');

  const questions = await getJson<QuestionJson[]>(teacher, `/api/assessments/${assessmentId}/questions`);
  expect(questions).toHaveLength(4);

  // --- Student: dashboard, start, answer wrong, reload mid-way.
  await student.goto('/');
  await expect(student.getByRole('heading', { name: 'Ready to Take an Assessment?' })).toBeVisible();
  const card = student.getByRole('article', { name: 'Photosynthesis Check' });
  await expect(card).toContainText('Biology 7');
  await card.getByRole('link', { name: 'Start Assessment' }).click();
  await expect(student).toHaveURL(new RegExp(`/assessment/${assessmentId}$`));
  await expect(student.getByText('How plants make food')).toBeVisible();
  await expect(student.getByText('Question 1 of 4')).toBeVisible();
  await expect(student.getByText('No time limit')).toBeVisible();
  await expect(student.getByRole('button', { name: 'Save Progress' })).toBeDisabled();

  const [q1, q2, q3, q4] = questions as [QuestionJson, QuestionJson, QuestionJson, QuestionJson];
  // Q1 right, the rest wrong: 25%, below standard.
  await answerOnPage(student, q1.questionType, q1.correctAnswer ?? '');
  await student.getByRole('button', { name: 'Save Progress' }).click();
  await expect(student.getByText('Progress Saved')).toBeVisible();
  await student.getByRole('button', { name: 'Next' }).click();
  await expect(student.getByText('Question 2 of 4')).toBeVisible();
  await answerOnPage(student, q2.questionType, wrongAnswer(q2));
  // Reload mid-way, right after answering (the answer is in the browser, sent or not yet).
  await student.reload();
  await expect(student.getByText('Question 2 of 4')).toBeVisible();
  if (q2.questionType !== 'short_answer') {
    await expect(student.getByLabel(wrongAnswer(q2), { exact: true })).toBeChecked();
  }
  await student.getByRole('button', { name: 'Previous' }).click();
  await expect(student.getByText('Question 1 of 4')).toBeVisible();
  if (q1.questionType !== 'short_answer') {
    await expect(student.getByLabel(q1.correctAnswer ?? '', { exact: true })).toBeChecked();
  }
  await student.getByRole('button', { name: 'Next' }).click();
  await student.getByRole('button', { name: 'Next' }).click();
  await answerOnPage(student, q3.questionType, wrongAnswer(q3));

  // Lose the connection on the last question: the answer waits in the browser (Save Progress says
  // so, calmly) and goes out once back online, at the latest on submit.
  await student.getByRole('button', { name: 'Next' }).click();
  await expect(student.getByText('Question 4 of 4')).toBeVisible();
  await student.context().setOffline(true);
  await answerOnPage(student, q4.questionType, wrongAnswer(q4));
  await student.getByRole('button', { name: 'Save Progress' }).click();
  await expect(student.getByText('Saved on This Device')).toBeVisible();
  await student.context().setOffline(false);
  await student.getByRole('button', { name: 'Submit Assessment' }).click();
  await student.getByRole('dialog').getByRole('button', { name: 'Submit now' }).click();
  await expect(student.getByText('Assessment submitted successfully!')).toBeVisible();
  await expect(student.getByTestId('result-score')).toHaveText('25%');
  await expect(student.getByTestId('result-level')).toHaveText('Below Standard');

  // The teacher's list counts the response.
  await teacher.reload();
  await expect(teacher.getByTestId('responses-badge')).toHaveText('Responses 1 / 1');

  // --- Dashboard: the result card (below 70: Below Standard) and its practice link.
  await student.getByRole('link', { name: 'Back to Dashboard' }).click();
  await expect(student.getByRole('heading', { name: 'All Caught Up!' })).toBeVisible();
  await expect(student.getByTestId('stat-Assessments Taken')).toHaveText('1');
  await expect(student.getByTestId('stat-Average Score')).toHaveText('25%');
  const resultCard = student.getByRole('article', { name: 'Result: Photosynthesis Check' });
  await expect(resultCard.getByTestId('performance-badge')).toHaveText('Below Standard');
  await resultCard.getByRole('link', { name: 'Extra Help Materials' }).click();
  await expect(student).toHaveURL(new RegExp(`/support/${assessmentId}/support$`));

  // --- Support practice. The student's copy has no answer keys; the teacher's has them.
  const seen = await getJson<MaterialJson>(student, `/api/assessments/${assessmentId}/support-material/support`);
  expect(JSON.stringify(seen)).not.toContain('correctAnswer');
  const material = await getJson<MaterialJson>(teacher, `/api/assessments/${assessmentId}/support-material/support`);
  expect(material.questions.map((q) => q.question)).toEqual(seen.questions.map((q) => q.question));
  expect(material.questions.length).toBeGreaterThan(0);
  await expect(student.getByRole('heading', { name: 'Reading' })).toBeVisible();
  // A retry asks the same questions in another order: each is answered by the question shown.
  const shown = async () => {
    for (const m of material.questions)
      if ((await student.getByRole('heading', { name: m.question }).count()) > 0) return m;
    throw new Error('no practice question of the material is shown');
  };
  const answerAll = async (right: boolean) => {
    for (const i of material.questions.keys()) {
      await expect(student.getByText(`Question ${i + 1} of ${material.questions.length}`)).toBeVisible();
      const q = await shown();
      const last = i === material.questions.length - 1;
      const action = student.getByRole('button', { name: last ? 'Submit' : 'Next', exact: true });
      await expect(action).toBeDisabled();
      // Nothing done yet, so no validation message: the disabled button waits.
      await expect(student.getByText('Please select or provide an answer')).toHaveCount(0);
      const question: QuestionJson = {
        id: q.id,
        questionText: q.question,
        questionType: (q.options.length === 0 ? 'short_answer' : q.type) as QuestionJson['questionType'],
        options: q.options,
        correctAnswer: q.correctAnswer,
      };
      await answerOnPage(student, question.questionType, right ? (q.correctAnswer ?? '') : wrongAnswer(question));
      await expect(action).toBeEnabled();
      await action.click();
    }
  };
  // All wrong: scored on the server, Keep Practicing and Try Again; then all right: 100 %.
  await answerAll(false);
  await expect(student.getByRole('heading', { name: 'Keep Practicing' })).toBeVisible();
  await expect(student.getByTestId('practice-score')).toHaveText('0%');
  await student.getByRole('button', { name: 'Try Again' }).click();
  await answerAll(true);
  await expect(student.getByText('Great Job!').first()).toBeVisible();
  await expect(student.getByTestId('practice-score')).toHaveText('100%');

  // --- Back on the dashboard the result shows at standard.
  await student.getByRole('link', { name: 'Back to Dashboard' }).click();
  await expect(async () => {
    await student.reload();
    await expect(
      student.getByRole('article', { name: 'Result: Photosynthesis Check' }).getByTestId('performance-badge'),
    ).toHaveText('At Standard', { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });

  // --- Result-based practice for the same result (built from the wrong answers).
  const [result] = await getJson<{ id: string }[]>(student, '/api/student/results');
  await student.goto(`/support-content/${result?.id ?? ''}`);
  await expect(student.getByRole('heading', { name: /^(Support Practice|Enrichment Challenge)$/ })).toBeVisible({
    timeout: 20_000,
  });
  await expect(student.getByText(/^Question 1 of \d+$/)).toBeVisible();

  // --- Teacher: AI recommendation, then the preview modal's activate toggle.
  await teacher.goto('/assessments');
  await teacher
    .getByRole('article', { name: 'Photosynthesis Check' })
    .getByRole('button', { name: 'Support', exact: true })
    .click();
  const recommendation = teacher.getByRole('dialog', { name: /Support Recommendation/ });
  await expect(recommendation.getByRole('button', { name: 'Download' })).toBeEnabled({ timeout: 20_000 });
  await checkA11y(teacher, 'support recommendation dialog');
  await expect(recommendation.getByRole('button', { name: 'Open in new tab' })).toBeEnabled();
  await recommendation.getByRole('button', { name: 'Close', exact: true }).last().click();
  await teacher.goto(`/assessment-preview/${assessmentId}`);
  await teacher.getByRole('button', { name: 'Preview', exact: true }).click();
  const previewModal = teacher.getByRole('dialog');
  await expect(previewModal.getByTestId('preview-status')).toHaveText('Active');
  await checkA11y(teacher, 'preview dialog');
  await previewModal.getByRole('button', { name: 'Deactivate' }).click();
  await expect(teacher.getByText('Assessment Deactivated')).toBeVisible();
  await expect(teacher.getByText('Assessment is now inactive for students.')).toBeVisible();
  await expect(previewModal.getByTestId('preview-status')).toHaveText('Inactive');
});
