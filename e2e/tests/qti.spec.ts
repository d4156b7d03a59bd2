// QTI 3.0 out and in (#31 item 6): a teacher exports an assessment as a QTI content package from
// its page, imports that package into another class through "Import QTI package…" and finds the
// same questions in the new draft with nothing reported; then imports a package written here, with
// one choice item and one extended-text item, and sees the extended-text item named as left out.
import { expect, type Page } from '@playwright/test';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { apiGet, apiPost, checkA11y, test, type QuestionJson } from './helpers';
import { classroom } from './journey';

const QTI3 = 'http://www.imsglobal.org/xsd/imsqtiasi_v3p0';

/** A package of this test's own: a manifest, one 4-option choice item and one extended-text item. */
function ownPackage(): Uint8Array {
  const manifest = `<?xml version="1.0" encoding="UTF-8"?>
<manifest xmlns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1" xmlns:imsmd="http://ltsc.ieee.org/xsd/LOM" identifier="volcanoes-manifest">
  <metadata>
    <schema>QTI Package</schema>
    <schemaversion>3.0.0</schemaversion>
    <imsmd:lom><imsmd:general><imsmd:title><imsmd:string xml:lang="en">Volcanoes check</imsmd:string></imsmd:title></imsmd:general></imsmd:lom>
  </metadata>
  <organizations/>
  <resources>
    <resource identifier="magma" type="imsqti_item_xmlv3p0" href="items/magma.xml"><file href="items/magma.xml"/></resource>
    <resource identifier="eruption-essay" type="imsqti_item_xmlv3p0" href="items/essay.xml"><file href="items/essay.xml"/></resource>
  </resources>
</manifest>`;
  const choice = `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item xmlns="${QTI3}" identifier="magma" title="Magma" adaptive="false" time-dependent="false">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="identifier">
    <qti-correct-response><qti-value>B</qti-value></qti-correct-response>
  </qti-response-declaration>
  <qti-outcome-declaration identifier="SCORE" cardinality="single" base-type="float"/>
  <qti-item-body>
    <qti-choice-interaction response-identifier="RESPONSE" shuffle="false" max-choices="1">
      <qti-prompt>What is molten rock called while it is still underground?</qti-prompt>
      <qti-simple-choice identifier="A">Lava</qti-simple-choice>
      <qti-simple-choice identifier="B">Magma</qti-simple-choice>
      <qti-simple-choice identifier="C">Ash</qti-simple-choice>
      <qti-simple-choice identifier="D">Basalt</qti-simple-choice>
    </qti-choice-interaction>
  </qti-item-body>
  <qti-response-processing template="https://purl.imsglobal.org/spec/qti/v3p0/rptemplates/match_correct.xml"/>
</qti-assessment-item>`;
  const essay = `<?xml version="1.0" encoding="UTF-8"?>
<qti-assessment-item xmlns="${QTI3}" identifier="eruption-essay" title="Eruption essay" adaptive="false" time-dependent="false">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="string"/>
  <qti-item-body>
    <p>Describe what happens before a volcano erupts.</p>
    <qti-extended-text-interaction response-identifier="RESPONSE" expected-lines="6"/>
  </qti-item-body>
</qti-assessment-item>`;
  return zipSync({
    'imsmanifest.xml': strToU8(manifest),
    'items/magma.xml': strToU8(choice),
    'items/essay.xml': strToU8(essay),
  });
}

/** Opens "Import QTI package…" on the class's page, sends the file and waits for the result. */
async function importInto(page: Page, classId: string, file: { name: string; buffer: Buffer }) {
  await page.goto(`/class/${classId}`);
  await page.getByRole('button', { name: 'Import QTI package…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import QTI package' });
  await dialog.getByLabel('QTI package').setInputFiles({ ...file, mimeType: 'application/zip' });
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog.getByTestId('qti-import-result')).toBeVisible({ timeout: 20_000 });
  return dialog;
}

test('when a teacher exports an assessment as QTI and imports it into another class, then the draft has the same questions; a package with an essay item names it as left out', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const c = await classroom(browser, { questionCount: 4 });
  const teacher = c.teacher;
  const other = await apiPost<{ id: string; name: string }>(teacher, '/api/classes', {
    name: `${c.cls.name} P6`,
    subject: 'Science',
    period: '6',
  });

  // --- Export: the assessment's page offers the package as a download.
  await teacher.goto(`/assessment-preview/${c.assessment.id}`);
  const exportLink = teacher.getByRole('link', { name: 'Export as QTI' });
  await expect(exportLink).toHaveAttribute('href', `/api/assessments/${c.assessment.id}/qti`);
  const [download] = await Promise.all([teacher.waitForEvent('download'), exportLink.click()]);
  expect(download.suggestedFilename()).toMatch(/\.zip$/);
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  const bytes = Buffer.concat(chunks);
  const files = unzipSync(new Uint8Array(bytes));
  expect(Object.keys(files)).toContain('imsmanifest.xml');
  expect(Object.keys(files).filter((f) => f.startsWith('items/'))).toHaveLength(4);

  // --- Import into the other class: all four come in, nothing is reported.
  const dialog = await importInto(teacher, other.id, { name: download.suggestedFilename(), buffer: bytes });
  await expect(dialog.getByRole('heading', { name: '4 questions imported' })).toBeFocused();
  await expect(dialog.getByTestId('qti-report-empty')).toBeVisible();
  await checkA11y(teacher, 'QTI import result');
  await dialog.getByRole('link', { name: c.assessment.title }).click();
  await expect(teacher).toHaveURL(/\/assessment-preview\/[0-9a-f-]{36}$/);
  const newId = teacher.url().split('/').pop() ?? '';
  expect(newId).not.toBe(c.assessment.id);
  await expect(teacher.getByRole('heading', { name: c.assessment.title })).toBeVisible();
  await expect(teacher.getByTestId('lifecycle-status')).toContainText(/draft/i);
  await teacher.getByRole('button', { name: 'Preview' }).click();
  const preview = teacher.getByRole('region', { name: 'Questions' });
  const shown = preview.getByRole('listitem').filter({ has: teacher.getByRole('list') });
  await expect(shown).toHaveCount(c.questions.length);
  for (const [i, q] of c.questions.entries())
    await expect(shown.nth(i).getByRole('paragraph').first()).toHaveText(`${i + 1}. ${q.questionText}`);
  // The same questions, in the same order, with the same options and keys.
  const imported = await apiGet<QuestionJson[]>(teacher, `/api/assessments/${newId}/questions`);
  const shape = (qs: QuestionJson[]) =>
    qs.map(({ questionText, questionType, options, correctAnswer }) => ({
      questionText,
      questionType,
      options,
      correctAnswer,
    }));
  expect(shape(imported)).toEqual(shape(c.questions));

  // --- A package of its own: the choice item comes in, the essay is named as left out with the reason.
  const own = await importInto(teacher, other.id, { name: 'volcanoes.zip', buffer: Buffer.from(ownPackage()) });
  await expect(own.getByRole('heading', { name: '1 question imported' })).toBeVisible();
  const leftOut = own.getByRole('region', { name: 'Left out (1)' });
  await expect(leftOut.getByRole('listitem')).toHaveText(
    /^eruption-essay in items\/essay\.xml: extended-text-interaction is not a question type Checkpoint has/,
  );
  await expect(own.getByTestId('qti-report-imported-without')).toHaveCount(0);
  await checkA11y(teacher, 'QTI import report');
  await own.getByRole('link', { name: 'Volcanoes check' }).click();
  await expect(teacher.getByText('What is molten rock called while it is still underground?')).toBeVisible();
});
