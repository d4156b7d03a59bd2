// Standards across a district in the browser: the district admin imports a small CASE framework
// (written here) on /admin/standards; a teacher of the district creates an assessment aligned to one
// of its standards with the picker; the questions show the standard's code; a student submits; the
// class page's mastery heatmap shows the student's level for that standard, and the assessment's
// results page its row in the Standards card.
import { randomUUID } from 'node:crypto';
import { expect } from '@playwright/test';
import { apiGet, apiPost, checkA11y, newUser, pageInNewContext, signIn, signUp, test } from './helpers';
import { LESSON, submitted, type Classroom } from './journey';
import { setPasswordByMail } from './mailbox';

const DOMAIN = 'demo.checkpoint.school';
const PROVIDER = 'https://case.example.org/ims/case/v1p0';

/** A CASE 1.1 CFPackage of two grade 6 water-cycle standards with codes unique to this run. */
function casePackage(run: string) {
  const documentId = randomUUID();
  const document = {
    title: `E2E Science ${run}`,
    identifier: documentId,
    uri: `${PROVIDER}/CFDocuments/${documentId}`,
  };
  const items = [
    [
      'ESS.2.4',
      'Develop a model to describe the cycling of water through evaporation, condensation and precipitation.',
    ],
    ['ESS.2.5', 'Explain how the sun heats the oceans and drives the water cycle.'],
  ].map(([code, statement]) => {
    const identifier = randomUUID();
    return {
      identifier,
      uri: `${PROVIDER}/CFItems/${identifier}`,
      humanCodingScheme: `E2E${run}.${code}`,
      fullStatement: statement,
      educationLevel: ['06'],
      CFItemType: 'Standard',
      lastChangeDateTime: '2026-06-01T00:00:00+00:00',
      CFDocumentURI: document,
    };
  });
  return {
    CFDocument: {
      ...document,
      creator: 'E2E State Department of Education',
      lastChangeDateTime: '2026-06-01T00:00:00+00:00',
      version: '2026',
      subject: ['Science'],
      CFPackageURI: { ...document, uri: `${PROVIDER}/CFPackages/${documentId}` },
    },
    CFItems: items,
    CFAssociations: items.map((item) => {
      const identifier = randomUUID();
      return {
        identifier,
        uri: `${PROVIDER}/CFAssociations/${identifier}`,
        associationType: 'isChildOf',
        originNodeURI: { title: item.humanCodingScheme, identifier: item.identifier, uri: item.uri },
        destinationNodeURI: document,
        lastChangeDateTime: '2026-06-01T00:00:00+00:00',
      };
    }),
  };
}

test.describe('standards across a district', () => {
  test.skip(!!process.env.E2E_BASE_URL, 'reads the mailbox of the all-in-one this run starts');

  test('when the admin imports a framework and a teacher aligns an assessment to it, then the questions show the code, the class heatmap shows the student’s level and the results page the standard’s row', async ({
    page,
    browser,
  }) => {
    const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase();
    const pkg = casePackage(run);
    const code = `E2E${run}.ESS.2.4`;

    // The district admin imports the package as a file on the Standards page.
    const admin = { email: `admin@${DOMAIN}`, password: `admin-pass-${run}`, firstName: '', lastName: '' };
    await setPasswordByMail(page, admin.email, admin.password);
    await signIn(page, admin);
    await page.goto('/admin');
    await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Standards' }).click();
    await expect(page).toHaveURL(/\/admin\/standards$/);
    await expect(page.getByRole('heading', { name: 'Standards', level: 1 })).toBeVisible();
    await page.getByLabel('CASE package file').setInputFiles({
      name: 'framework.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(pkg)),
    });
    await page.getByRole('button', { name: 'Import file' }).click();
    const counts = page.getByTestId('import-counts');
    await expect(counts).toContainText(`Imported E2E Science ${run}`);
    await expect(counts).toContainText('Added2');
    await expect(page.getByRole('table', { name: 'Frameworks' })).toContainText(`E2E Science ${run}`);
    await page.getByLabel('Code or words').fill(`e2e${run}.ess`);
    await expect(page.getByRole('table', { name: 'Standards found' }).getByRole('row')).toHaveCount(3);
    await checkA11y(page, 'standards page after an import');

    // A teacher of the district creates a class and an assessment aligned with the picker.
    const teacher = await pageInNewContext(browser);
    const teacherUser = { ...newUser('std-teacher'), email: `std-teacher.${run.toLowerCase()}@${DOMAIN}` };
    await signUp(teacher, teacherUser);
    const cls = await apiPost<Classroom['cls']>(teacher, '/api/classes', {
      name: `Earth Science ${run}`,
      subject: 'Science',
      period: '1',
    });
    await teacher.goto(`/class/${cls.id}`);
    await teacher.getByRole('button', { name: 'Create Assessment' }).click();
    const dialog = teacher.getByRole('dialog');
    await dialog.getByLabel('Title').fill(`Water ${run}`);
    await dialog.getByLabel('Content to assess').fill(LESSON);
    await dialog.getByLabel('Question type').selectOption('multiple_choice');
    await dialog.getByLabel('Number of questions').fill('4');
    const picker = dialog.getByRole('combobox', { name: 'Standards' });
    await picker.fill(code);
    await expect(dialog.getByRole('option', { name: new RegExp(code.replace(/\./g, '\\.')) })).toBeVisible();
    await checkA11y(teacher, 'create assessment with the standards picker open');
    await picker.press('Enter');
    await expect(dialog.getByRole('button', { name: `Remove ${code}` })).toBeVisible();
    await dialog.getByRole('button', { name: 'Create Assessment' }).click();
    await expect(teacher).toHaveURL(/\/assessment-preview\//, { timeout: 30_000 });
    const assessmentId = teacher.url().split('/').pop() ?? '';

    // Each question carries the chosen standard; the edit page shows its code. The questions are
    // generated after the preview opens: wait for them (a loaded machine took longer than the read).
    await expect
      .poll(
        async () =>
          (await apiGet<Classroom['questions']>(teacher, `/api/assessments/${assessmentId}/questions`)).length,
        {
          timeout: 30_000,
          intervals: [250, 500, 1_000],
        },
      )
      .toBe(4);
    const questions = await apiGet<Classroom['questions']>(teacher, `/api/assessments/${assessmentId}/questions`);
    await teacher.goto(`/assessment-edit/${assessmentId}`);
    await expect(teacher.getByRole('list', { name: 'Standards of question 1' })).toContainText(code);
    await checkA11y(teacher, 'assessment edit page with standards');
    await apiPost(teacher, `/api/assessments/${assessmentId}/assign`);

    // A student of the district joins and submits with every answer right.
    const student = await pageInNewContext(browser);
    const studentUser = { ...newUser('std-student'), email: `std-student.${run.toLowerCase()}@${DOMAIN}` };
    await signUp(student, studentUser, 'Student');
    await apiPost(student, '/api/classes/join', { joinCode: cls.joinCode });
    const classroom: Classroom = {
      teacher,
      teacherUser,
      cls,
      assessment: { id: assessmentId, title: `Water ${run}` },
      questions,
    };
    await submitted(student, classroom, questions.length);

    // The class page's heatmap: the student's row, the standard's column, above standard.
    const name = `${studentUser.firstName} ${studentUser.lastName}`;
    await expect
      .poll(
        async () => {
          await teacher.goto(`/class/${cls.id}`);
          const heatmap = teacher.getByRole('table', { name: 'Mastery by student and standard' });
          await heatmap.or(teacher.getByTestId('mastery-empty')).first().waitFor();
          return heatmap.isVisible();
        },
        { timeout: 30_000, intervals: [500, 1_000, 2_000] },
      )
      .toBe(true);
    const heatmap = teacher.getByRole('table', { name: 'Mastery by student and standard' });
    await expect(heatmap.getByRole('columnheader', { name: code })).toBeVisible();
    const row = heatmap.getByRole('row', { name: new RegExp(name) });
    await expect(row.locator('td[data-level="above"]')).toContainText('100%');
    await expect(row).toContainText('Above Standard');
    await checkA11y(teacher, 'class page with the mastery heatmap');

    // The assessment's results page: the standard's row, its four aligned questions and the one student above.
    await teacher.goto(`/assessment-results/${assessmentId}`);
    const standards = teacher.getByRole('table', { name: 'Standards' });
    const standardRow = standards.getByRole('row', { name: new RegExp(code.replace(/\./g, '\\.')) });
    await expect(standardRow.getByRole('rowheader')).toContainText(code);
    await expect(standardRow.getByRole('cell')).toHaveText(['4', '1', '100%', '0', '0', '1']);
    await checkA11y(teacher, 'assessment results page with standards');
  });
});
