// The item bank: a teacher saves a question of one assessment to their bank, finds it on the Item
// Bank page by its words, and adds it to another assessment from that one's edit page; the added
// question is a copy (changing the bank item later leaves the assessment as it was); the teacher
// edits the item on the Item Bank page (the API's refusal of a field shows on that field) and
// finds it changed.
import { expect, type Page } from '@playwright/test';
import { apiGet, apiPost, checkA11y, csrfHeaders, newUser, signUp, test, type QuestionJson } from './helpers';

const LESSON = [
  'The water cycle moves water between the oceans, the air and the land.',
  'Heat from the sun turns liquid water into water vapour: this is evaporation.',
  'Water vapour cools high in the air and turns back into droplets: this is condensation.',
  'Droplets join together in clouds and fall as rain, snow or hail: this is precipitation.',
  'Water that falls on land flows in rivers back to the oceans, or soaks into the ground.',
].join(' ');

async function draft(page: Page, classId: string, title: string): Promise<string> {
  const created = await apiPost<{ id: string }>(page, '/api/assessments', {
    title,
    contentToAssess: LESSON,
    questionType: 'true_false',
    numberOfQuestions: 1,
    classId,
  });
  // Generation adds its question in the background: wait for it, so the lists below are stable.
  await expect
    .poll(
      async () => (await apiGet<{ generationStatus: string }>(page, `/api/assessments/${created.id}`)).generationStatus,
      { timeout: 30_000 },
    )
    .not.toBe('generating');
  return created.id;
}

test('teacher saves a question to the bank, finds it by search and adds it to another assessment', async ({ page }) => {
  test.setTimeout(120_000);
  await signUp(page, newUser('bank-teacher'));
  const cls = await apiPost<{ id: string }>(page, '/api/classes', {
    name: 'Earth Science 7',
    subject: 'Science',
    period: '3',
  });
  const source = await draft(page, cls.id, 'Water Cycle Check');
  const target = await draft(page, cls.id, 'Weather Unit Quiz');
  const tag = `Kestrel${Date.now().toString(36)}`;
  const text = `${tag}: which process turns liquid water into vapour?`;
  await apiPost(page, `/api/assessments/${source}/questions`, {
    questionText: text,
    questionType: 'short_answer',
    correctAnswer: 'evaporation',
    acceptedAnswers: ['evaporating'],
    points: 2,
  });
  const n = (await apiGet<QuestionJson[]>(page, `/api/assessments/${source}/questions`)).length;

  // --- Save it to the bank from the edit page (an individual account: only its own bank).
  await page.goto(`/assessment-edit/${source}`);
  await page.getByRole('button', { name: `Save Question ${n} to Bank` }).click();
  const saveDialog = page.getByRole('dialog', { name: `Save question ${n} to the bank` });
  await expect(saveDialog.getByLabel('Only me')).toBeChecked();
  await expect(saveDialog.getByLabel('My district')).toBeDisabled();
  await checkA11y(page, 'save to bank dialog');
  await saveDialog.getByRole('button', { name: 'Save to Bank' }).click();
  await expect(page.getByText('Saved to Bank')).toBeVisible();

  // --- Find it on the Item Bank page by its words.
  await page.getByRole('navigation').getByRole('link', { name: 'Item Bank' }).first().click();
  await expect(page.getByRole('heading', { name: 'Item Bank', level: 1 })).toBeVisible();
  await page.getByLabel('Words').fill(tag);
  await page.getByRole('button', { name: 'Search' }).click();
  const found = page.getByRole('list', { name: 'Bank items' }).locator(':scope > li');
  await expect(found).toHaveCount(1);
  await expect(found.first()).toContainText(text);
  await expect(found.first()).toContainText('Answer: evaporation · evaporating');
  await expect(found.first()).toContainText('Science');

  // --- Add it to the other assessment from its edit page.
  const before = (await apiGet<QuestionJson[]>(page, `/api/assessments/${target}/questions`)).length;
  await page.goto(`/assessment-edit/${target}`);
  await page.getByRole('button', { name: 'Add from Bank' }).click();
  const addDialog = page.getByRole('dialog', { name: 'Add questions from the bank' });
  await addDialog.getByLabel('Words').fill(tag);
  await addDialog.getByRole('button', { name: 'Search' }).click();
  await addDialog.getByRole('checkbox', { name: `Choose: ${text}` }).check();
  await checkA11y(page, 'add from bank dialog');
  await addDialog.getByRole('button', { name: 'Add 1 to Assessment' }).click();
  await expect(page.getByText('1 question added from the bank.')).toBeVisible();
  await expect(page.getByRole('heading', { name: `Questions (${before + 1})` })).toBeVisible();
  await expect(page.getByRole('region', { name: `Question ${before + 1}` })).toContainText(text);

  // --- A copy: rewriting the bank item leaves the assessment's question as it was.
  const items = await apiGet<{ items: { id: string }[] }>(page, `/api/bank/items?q=${tag}`);
  const itemId = items.items[0]!.id;
  const rewritten = await page.request.put(`/api/bank/items/${itemId}`, {
    headers: await csrfHeaders(page),
    data: { questionText: `${tag}: rewritten`, questionType: 'short_answer', correctAnswer: 'boiling' },
  });
  expect(rewritten.status()).toBe(200);
  const questions = await apiGet<QuestionJson[]>(page, `/api/assessments/${target}/questions`);
  expect(questions[before]).toMatchObject({ questionText: text, correctAnswer: 'evaporation' });

  // --- Edit it on the Item Bank page: the API's refusal shows on its field; the change is found.
  await page.goto('/bank');
  await page.getByLabel('Words').fill(tag);
  await page.getByRole('button', { name: 'Search' }).click();
  const listed = page.getByRole('list', { name: 'Bank items' }).locator(':scope > li');
  await expect(listed).toHaveCount(1);
  await listed.first().getByRole('button', { name: 'Edit' }).click();
  const editDialog = page.getByRole('dialog', { name: 'Edit bank item' });
  await expect(editDialog.getByLabel('Question Text')).toHaveValue(`${tag}: rewritten`);
  const changed = `${tag}: which process turns water vapour into the droplets of clouds?`;
  await editDialog.getByLabel('Question Text').fill(changed);
  await editDialog.getByLabel('Correct Answer').fill('condensation');
  await editDialog.getByLabel('Grade').fill('7'.repeat(21));
  await editDialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(editDialog.getByLabel('Grade')).toHaveAccessibleDescription('Grade must be at most 20 characters');
  await checkA11y(page, 'edit bank item dialog with a refused field');
  await editDialog.getByLabel('Grade').fill('7');
  await editDialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByText('Item Updated')).toBeVisible();
  await expect(editDialog).toBeHidden();
  await page.getByLabel('Words').fill(`${tag} droplets`);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(listed).toHaveCount(1);
  await expect(listed.first()).toContainText(changed);
  await expect(listed.first()).toContainText('Answer: condensation');
  await expect(listed.first()).toContainText('Grade 7');
});
