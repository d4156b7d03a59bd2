// QTI 3.0 out and in against real Postgres (#31 item 6): an assessment exported as a content
// package and imported into another class comes back the same (questions, keys, alternatives,
// points, standards); what cannot come in is reported; a bad package, a class not the caller's or
// an assessment of another district changes nothing.
import { randomUUID } from 'node:crypto';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuestionsGeneratedSchema } from '@checkpoint/events';
import { gatewayHeaders } from '@checkpoint/testkit';
import {
  actor,
  call,
  deliver,
  givenClass,
  MC,
  startAssessmentService,
  VALID_CREATE,
  type Actor,
  type Harness,
} from './helpers.ts';

let h: Harness;
const tenant = randomUUID();
const teacher = actor('teacher', tenant);
const colleague = actor('teacher', tenant);
const otherDistrict = actor('teacher', randomUUID());
const standard = {
  identifier: randomUUID(),
  code: 'NGSS.MS-ESS2-4',
  statement: 'Develop a model of the cycling of water.',
};

beforeAll(async () => {
  h = await startAssessmentService({ RATE_LIMIT_ASSESSMENT_CREATE_PER_MINUTE: '1000' });
  const frameworkId = randomUUID();
  await h.sql.query(
    `insert into standard_frameworks (id, tenant_id, document_identifier, title, item_count) values ($1, $2, $3, 'Science', 1)`,
    [frameworkId, tenant, randomUUID()],
  );
  await h.sql.query(
    `insert into standard_items (id, framework_id, tenant_id, identifier, code, statement, uri) values ($1, $2, $3, $4, $5, $6, $7)`,
    [
      randomUUID(),
      frameworkId,
      tenant,
      standard.identifier,
      standard.code,
      standard.statement,
      `https://case.example.org/CFItems/${standard.identifier}`,
    ],
  );
});
afterAll(async () => {
  await h?.stop();
});

const TF = {
  questionText: 'Water boils at 100 °C at sea level.',
  questionType: 'true_false',
  correctAnswer: 'True',
  points: 1,
};
const SHORT = {
  questionText: 'What do we call liquid water turning into a gas?\nOne word.',
  questionType: 'short_answer',
  correctAnswer: 'evaporation',
  acceptedAnswers: ['vaporization'],
  points: 2.5,
  standards: [standard.identifier],
};

/** A ready assessment of three questions (multiple choice, true/false, short answer aligned to a standard). */
async function givenAssessment(by: Actor) {
  const classId = await givenClass(h, by);
  const created = await call(h, by, 'POST', '/api/assessments', { ...VALID_CREATE, numberOfQuestions: 2, classId });
  const id = created.body.id as string;
  await deliver(
    h,
    QuestionsGeneratedSchema,
    { jobId: randomUUID(), assessmentId: id, tenantId: by.tenantId, provider: 'offline', questions: [MC, TF] },
    { key: id, tenantId: by.tenantId, source: 'generation' },
  );
  // Aligned to the standard of the teacher's own district's catalogue (the other district has none).
  const standards = by.tenantId === tenant ? SHORT.standards : [];
  const added = await call(h, by, 'POST', `/api/assessments/${id}/questions`, { ...SHORT, standards });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return { id, classId };
}

async function exportQti(by: Actor, id: string) {
  const res = await fetch(`${h.url}/api/assessments/${id}/qti`, { headers: await gatewayHeaders('assessment', by) });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    disposition: res.headers.get('content-disposition'),
    bytes: new Uint8Array(await res.arrayBuffer()),
  };
}

async function importQti(by: Actor, classId: string, bytes: Uint8Array, type = 'application/zip') {
  const res = await fetch(`${h.url}/api/qti/imports?classId=${classId}`, {
    method: 'POST',
    headers: { 'content-type': type, ...(await gatewayHeaders('assessment', by)) },
    body: bytes,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { report: unknown[] } };
}

const assessmentsOf = async (by: Actor, classId: string) =>
  ((await call(h, by, 'GET', `/api/classes/${classId}/assessments`)).body as unknown[]).length;

const asWritten = (q: Record<string, unknown>) => ({
  questionText: q.questionText,
  questionType: q.questionType,
  options: q.options,
  correctAnswer: q.correctAnswer,
  acceptedAnswers: q.acceptedAnswers,
  points: q.points,
  standards: q.standards,
});

describe('QTI 3.0 export and import', () => {
  it('when an assessment is exported and the package imported into another class, then the questions come back the same, as a draft', async () => {
    const { id } = await givenAssessment(teacher);
    const exported = await exportQti(teacher, id);
    expect(exported.status).toBe(200);
    expect(exported.type).toBe('application/zip');
    expect(exported.disposition).toBe('attachment; filename="Fractions-check.qti.zip"');
    expect(Object.keys(unzipSync(exported.bytes))).toContain('imsmanifest.xml');

    const period3 = await givenClass(h, teacher, 'Period 3');
    const imported = await importQti(teacher, period3, exported.bytes);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body).toMatchObject({ title: 'Fractions check', imported: 3, report: [] });

    const copy = await call(h, teacher, 'GET', `/api/assessments/${String(imported.body.assessmentId)}`);
    expect(copy.body).toMatchObject({
      classId: period3,
      title: 'Fractions check',
      description: 'Quick check',
      status: 'draft',
    });
    const before = (await call(h, teacher, 'GET', `/api/assessments/${id}/questions`)).body as Record<
      string,
      unknown
    >[];
    const after = (await call(h, teacher, 'GET', `/api/assessments/${String(imported.body.assessmentId)}/questions`))
      .body as Record<string, unknown>[];
    expect(after.map(asWritten)).toEqual(before.map(asWritten));
    expect(after[2]).toMatchObject({ acceptedAnswers: ['vaporization'], points: '2.50' });
    expect((after[2]!.standards as { identifier: string }[]).map((s) => s.identifier)).toEqual([standard.identifier]);
  });

  it("when the package aligns to a standard the district's catalogue lacks or holds items Checkpoint cannot show, then the rest comes in and the report names each", async () => {
    const { id } = await givenAssessment(otherDistrict);
    const files = unzipSync((await exportQti(otherDistrict, id)).bytes);
    files['items/essay.xml'] = strToU8(`<?xml version="1.0"?>
<qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0" identifier="essay" title="Essay">
  <qti-response-declaration identifier="RESPONSE" cardinality="single" base-type="string"/>
  <qti-item-body><qti-extended-text-interaction response-identifier="RESPONSE"/></qti-item-body>
</qti-assessment-item>`);
    const manifest = new TextDecoder().decode(files['imsmanifest.xml']);
    files['imsmanifest.xml'] = strToU8(
      manifest.replace(
        '</resources>',
        '<resource identifier="essay" type="imsqti_item_xmlv3p0" href="items/essay.xml"><file href="items/essay.xml"/></resource></resources>',
      ),
    );
    const classId = await givenClass(h, teacher, 'Imports');
    const imported = await importQti(teacher, classId, zipSync(files));
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    expect(imported.body.imported).toBe(3);
    expect(imported.body.report).toEqual([
      {
        file: 'items/essay.xml',
        item: 'essay',
        reason: expect.stringMatching(/extended-text-interaction is not a question type/),
        imported: false,
      },
    ]);
  });

  it("when a short answer's standard is not in the district's catalogue, then the question comes in without it and the report says so", async () => {
    const { id } = await givenAssessment(teacher);
    const bytes = (await exportQti(teacher, id)).bytes;
    const classId = await givenClass(h, otherDistrict, 'Elsewhere');
    const imported = await importQti(otherDistrict, classId, bytes);
    expect(imported.status).toBe(201);
    expect(imported.body.report).toEqual([
      {
        file: 'items/item-3.xml',
        item: 'item-3',
        reason: `its standard ${standard.code} is not in your district's standards catalogue: imported without it`,
        imported: true,
      },
    ]);
  });

  it('when the package cannot be read or nothing in it can come in, then 400 names package and no assessment is made', async () => {
    const classId = await givenClass(h, teacher, 'Empty');
    const bad = await importQti(teacher, classId, zipSync({ 'readme.txt': strToU8('hello') }));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      code: 'validation_failed',
      fields: { package: 'The package has no imsmanifest.xml at its root' },
    });
    const onlyEssay = await importQti(
      teacher,
      classId,
      strToU8(
        '<qti-assessment-item xmlns="http://www.imsglobal.org/xsd/imsqtiasi_v3p0" identifier="e"><qti-item-body><qti-extended-text-interaction response-identifier="R"/></qti-item-body></qti-assessment-item>',
      ),
      'application/xml',
    );
    expect(onlyEssay.status).toBe(400);
    expect(String((onlyEssay.body.fields as Record<string, string>).package)).toMatch(
      /^Nothing in the package can be imported: extended-text-interaction/,
    );
    const json = await importQti(teacher, classId, strToU8('{"a":1}'), 'application/json');
    expect(json.status).toBe(415);
    expect(await assessmentsOf(teacher, classId)).toBe(0);
  });

  it("when the class is not the caller's or the assessment is another district's, then nothing is imported or exported", async () => {
    const { id, classId } = await givenAssessment(teacher);
    const bytes = (await exportQti(teacher, id)).bytes;
    const intoColleagues = await importQti(colleague, classId, bytes);
    expect(intoColleagues.status).toBe(400);
    expect(intoColleagues.body.fields).toEqual({ classId: 'Not one of your classes' });
    expect((await exportQti(otherDistrict, id)).status).toBe(404);
    expect((await exportQti(colleague, id)).status).toBe(404);
    const student = actor('student', tenant);
    expect((await exportQti(student, id)).status).toBe(403);
    expect((await importQti(teacher, 'not-a-uuid', bytes)).status).toBe(400);
  });
});
