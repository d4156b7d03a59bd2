// Answers given offline reach the server (the browser's side of "nothing lost", docs/security.md). What the taking
// page promises (web/src/features/takeAssessment/answerStore.ts): answers live in IndexedDB, so a
// reload or a lost connection loses nothing, and the unsent ones go out when the page opens online
// and when the connection comes back. The app shell itself does not load offline (no service
// worker), so the reload here happens offline and fails, and the page is opened again once the
// browser is online but while saving still cannot reach the server; it must show every answer,
// say calmly that they are kept on this device, and send them all when the connection comes
// back. (The page tries no save while the browser is offline: Chromium's offline emulation may
// still deliver a request it reported failed. assessments.spec.ts covers Save Progress pressed
// offline.)
import { expect, type Page } from '@playwright/test';
import { apiGet, apiPost, newUser, pageInNewContext, signUp, test } from './helpers';

const LESSON = [
  'Photosynthesis is the process plants use to turn light energy into chemical energy.',
  'Chlorophyll is the green pigment that absorbs sunlight inside the chloroplasts of leaf cells.',
  'Plants take in carbon dioxide from the air through small openings called stomata.',
  'Water travels from the roots to the leaves through tubes called xylem.',
].join(' ');

interface SavedResponse {
  questionId: string;
  answer: string;
  clientSeq: number | null;
}

const QUESTIONS = 3;

/** Keeps a read-write transaction open on the app's answers store until `window.releaseStore`. */
async function holdAnswersStore(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('checkpoint-answers');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const store = open.result.transaction('answers', 'readwrite').objectStore('answers');
          const spin = () => {
            if (!(window as { releaseStore?: boolean }).releaseStore) store.get('none').onsuccess = spin;
          };
          spin();
          resolve();
        };
      }),
  );
}

/** The taking page's save status while answers wait on this device (offline, or the server out of reach). */
async function keptNotice(page: Page, offline: boolean): Promise<void> {
  await expect(page.getByTestId('save-status')).toHaveText(
    offline
      ? 'Offline — your answers are kept on this device and will be sent when you are back online'
      : /^Not sent yet — your answers are kept on this device/,
  );
}

test('answers given offline survive a reload and all reach the server when the connection is back', async ({
  browser,
}) => {
  test.setTimeout(120_000);

  // --- A teacher's class and a short-answer assessment, assigned; a student who joined.
  const teacher = await pageInNewContext(browser);
  await signUp(teacher, newUser('offline-teacher'));
  const cls = await apiPost<{ id: string; joinCode: string }>(teacher, '/api/classes', {
    name: 'Offline 5',
    subject: 'Science',
    period: '1',
  });
  const student = await pageInNewContext(browser);
  await signUp(student, newUser('offline-student'), 'Student');
  await apiPost(student, '/api/classes/join', { joinCode: cls.joinCode });
  const { id } = await apiPost<{ id: string }>(teacher, '/api/assessments', {
    title: 'Offline Check',
    contentToAssess: LESSON,
    questionType: 'short_answer',
    numberOfQuestions: QUESTIONS,
    description: 'Answered without a connection',
    classId: cls.id,
  });
  await expect
    .poll(
      async () => (await apiGet<{ generationStatus: string }>(teacher, `/api/assessments/${id}`)).generationStatus,
      {
        timeout: 30_000,
      },
    )
    .toBe('ready');
  await apiPost(teacher, `/api/assessments/${id}/assign`);

  // --- The student opens the taking page, then loses the connection and answers every question,
  // while IndexedDB is slow: another tab of the app holds the answers store, so the page is left
  // with its writes still waiting (what AnswerStore.keepUnwritten is for).
  await student.goto(`/assessment/${id}`);
  await expect(student.getByText(`Question 1 of ${QUESTIONS}`)).toBeVisible();
  const otherTab = await student.context().newPage();
  await otherTab.goto('/');
  await holdAnswersStore(otherTab);
  await student.context().setOffline(true);
  const typed = Array.from({ length: QUESTIONS }, (_, i) => `offline answer ${i + 1} ${Date.now().toString(36)}`);
  for (const [i, answer] of typed.entries()) {
    await expect(student.getByText(`Question ${i + 1} of ${QUESTIONS}`)).toBeVisible();
    await student.getByLabel('Your answer').fill(answer);
    if (i < QUESTIONS - 1) await student.getByRole('button', { name: 'Next' }).click();
  }
  await keptNotice(student, true);

  // --- Reloaded while offline: the app cannot load (no service worker), the answers are kept.
  await student.reload().catch(() => undefined);
  await otherTab.evaluate(() => ((window as { releaseStore?: boolean }).releaseStore = true));
  await otherTab.close();

  // --- Online again, but saving still cannot reach the server: the page opens with every answer.
  await student.route('**/api/responses', (route) => route.abort('connectionrefused'));
  await student.context().setOffline(false);
  await student.goto(`/assessment/${id}`);
  await expect(student.getByText(`Question ${QUESTIONS} of ${QUESTIONS}`)).toBeVisible();
  await keptNotice(student, false);
  for (let i = QUESTIONS - 1; i >= 0; i--) {
    await expect(student.getByText(`Question ${i + 1} of ${QUESTIONS}`)).toBeVisible();
    await expect(student.getByLabel('Your answer')).toHaveValue(typed[i]!);
    if (i > 0) await student.getByRole('button', { name: 'Previous' }).click();
  }

  // --- The connection comes back: every answer goes out, as typed, with the sequence it was given.
  await student.unroute('**/api/responses');
  await student.context().setOffline(true);
  await student.waitForFunction(() => !navigator.onLine);
  await student.context().setOffline(false);
  await expect(student.getByTestId('save-status')).toHaveText('Saved', { timeout: 15_000 });
  const questions = await apiGet<{ id: string }[]>(teacher, `/api/assessments/${id}/questions`);
  const saved = await apiGet<SavedResponse[]>(student, `/api/assessments/${id}/responses`);
  expect(
    Object.fromEntries(saved.map((r) => [r.questionId, r.answer])),
    'the server holds every answer typed offline',
  ).toEqual(Object.fromEntries(questions.map((q, i) => [q.id, typed[i]])));
  expect(saved.every((r) => typeof r.clientSeq === 'number')).toBe(true);

  // --- And they count: the submitted result is scored from exactly those answers.
  await student.getByRole('button', { name: 'Next' }).click();
  await student.getByRole('button', { name: 'Next' }).click();
  await student.getByRole('button', { name: 'Submit Assessment' }).click();
  await student.getByRole('dialog').getByRole('button', { name: 'Submit now' }).click();
  await expect(student.getByText('Assessment submitted successfully!')).toBeVisible();
  const [result] = await apiGet<{ id: string }[]>(student, '/api/student/results');
  const detail = await apiGet<{ questions: { answer: string | null }[] }>(student, `/api/results/${result!.id}`);
  expect(detail.questions.map((q) => q.answer)).toEqual(typed);
});
