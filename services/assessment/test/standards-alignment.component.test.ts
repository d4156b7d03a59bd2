// Alignment to standards against real Postgres (docs/adr/012-standards.md): creating an assessment
// with standards chosen from the catalogue, each question's alignment as its teacher reads and
// edits it, the events that carry it, and generated questions that name a standard the teacher
// did not choose. The catalogue's rows are written here with SQL (its import is another module).
import { randomUUID } from 'node:crypto';
import { QuestionsGeneratedSchema } from '@checkpoint/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actor,
  call,
  deliver,
  givenClass,
  LONG_LESSON,
  MC,
  outboxFor,
  startAssessmentService,
  VALID_CREATE,
  type Actor,
  type Harness,
} from './helpers.ts';

let h: Harness;
const tenant = randomUUID();
const teacher = actor('teacher', tenant);
const otherDistrict = actor('teacher', randomUUID());

beforeAll(async () => {
  h = await startAssessmentService({ RATE_LIMIT_ASSESSMENT_CREATE_PER_MINUTE: '1000' });
});
afterAll(async () => {
  await h?.stop();
});

interface Item {
  identifier: string;
  code: string;
  statement: string;
  uri: string;
}

/** A framework of `tenantId` (null: the platform's) with the given items; `withdrawn` ones withdrawn. */
async function givenFramework(tenantId: string | null, items: Item[], withdrawn: string[] = []) {
  const frameworkId = randomUUID();
  await h.sql.query(
    `insert into standard_frameworks (id, tenant_id, document_identifier, title, item_count)
     values ($1, $2, $3, 'Test framework', $4)`,
    [frameworkId, tenantId, randomUUID(), items.length],
  );
  for (const i of items)
    await h.sql.query(
      `insert into standard_items (id, framework_id, tenant_id, identifier, code, statement, uri, withdrawn_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        randomUUID(),
        frameworkId,
        tenantId,
        i.identifier,
        i.code,
        i.statement,
        i.uri,
        withdrawn.includes(i.identifier) ? new Date() : null,
      ],
    );
  return frameworkId;
}

const item = (code: string, statement: string): Item => {
  const identifier = randomUUID();
  return { identifier, code, statement, uri: `https://case.example.org/uri/${identifier}` };
};

const RATIO = item(
  'CCSS.Math.Content.6.RP.A.1',
  'Understand the concept of a ratio and use ratio language to describe a ratio relationship between two quantities.',
);
const RATE = item(
  'CCSS.Math.Content.6.RP.A.2',
  'Understand the concept of a unit rate a/b associated with a ratio a:b with b ≠ 0, and use rate language in the context of a ratio relationship.',
);
const PLATFORM = item(
  'NGSS.MS-LS1-1',
  'Conduct an investigation to provide evidence that living things are made of cells.',
);
const OLD = item('CCSS.Math.Content.6.RP.A.9', 'A standard the state has since withdrawn.');
const FOREIGN = item('TX.MATH.6.4B', 'Another district’s standard.');
let frameworkId: string;

beforeAll(async () => {
  frameworkId = await givenFramework(tenant, [RATIO, RATE, OLD], [OLD.identifier]);
  await givenFramework(null, [PLATFORM]);
  await givenFramework(otherDistrict.tenantId, [FOREIGN]);
});

async function create(by: Actor, body: Record<string, unknown>) {
  const classId = await givenClass(h, by);
  return call(h, by, 'POST', '/api/assessments', { ...VALID_CREATE, classId, ...body });
}

const refOf = (i: Item) => ({ identifier: i.identifier, code: i.code, uri: i.uri });

describe('creating an assessment with standards', () => {
  it('when standards are chosen, then they are stored in order, fill the empty labels, and the events carry them', async () => {
    const res = await create(teacher, { standards: [RATE.identifier, RATIO.identifier, PLATFORM.identifier] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.standard).toBe(`${RATE.code}, ${RATIO.code}, ${PLATFORM.code}`);
    expect(res.body.topic.length).toBeLessThanOrEqual(120);
    expect(RATE.statement.startsWith(res.body.topic.replace(/…$/, ''))).toBe(true);

    const detail = await call(h, teacher, 'GET', `/api/assessments/${res.body.id}`);
    expect(detail.body.standards).toEqual([
      { ...refOf(RATE), statement: RATE.statement, frameworkId },
      { ...refOf(RATIO), statement: RATIO.statement, frameworkId },
      { ...refOf(PLATFORM), statement: PLATFORM.statement, frameworkId: expect.any(String) },
    ]);
    const [created] = (await outboxFor(h, res.body.id)).filter((e) => e.type === 'AssessmentCreated');
    const m = created!.message as {
      standards: { identifier: string; statement: string }[];
      generation: { standards: { identifier: string; code: string; statement: string }[] };
    };
    // The assessment's standards without statements; the generation request with them.
    expect(m.standards.map((s) => [s.identifier, s.statement])).toEqual([
      [RATE.identifier, ''],
      [RATIO.identifier, ''],
      [PLATFORM.identifier, ''],
    ]);
    expect(m.generation.standards.map((s) => [s.identifier, s.code, s.statement])).toEqual([
      [RATE.identifier, RATE.code, RATE.statement],
      [RATIO.identifier, RATIO.code, RATIO.statement],
      [PLATFORM.identifier, PLATFORM.code, PLATFORM.statement],
    ]);
  });

  it('when the teacher gave a standard label and a topic, then they are kept', async () => {
    const res = await create(teacher, { standards: [RATIO.identifier], standard: '6.RP', topic: 'Ratios' });
    expect(res.status).toBe(201);
    expect([res.body.standard, res.body.topic]).toEqual(['6.RP', 'Ratios']);
  });

  it("when the spec's other payload sends the lesson as its labels, then the standards still fill the standard", async () => {
    const classId = await givenClass(h, teacher);
    const res = await call(h, teacher, 'POST', '/api/assessments', {
      title: 'Ratios',
      classId,
      standard: LONG_LESSON,
      topic: LONG_LESSON,
      questions: { type: 'mixed', count: 3 },
      standards: [RATIO.identifier],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.standard).toBe(RATIO.code);
    expect(res.body.topic.length).toBeLessThanOrEqual(120);
  });

  it('when a standard is unknown, withdrawn, another district’s, repeated or not an identifier, then 400 names standards[i] and nothing is stored', async () => {
    const before = (await h.sql.query('select count(*)::int as n from assessments')).rows[0].n;
    const cases: [unknown[], string][] = [
      [[RATIO.identifier, 'CCSS.Math.Content.6.RP.A.7'], 'standards[1]'],
      [[OLD.identifier], 'standards[0]'],
      [[RATIO.identifier, FOREIGN.identifier], 'standards[1]'],
      [[RATIO.identifier, RATE.identifier, RATIO.identifier], 'standards[2]'],
      [[RATIO.identifier, { identifier: RATE.identifier }], 'standards[1]'],
      [['   '], 'standards[0]'],
    ];
    for (const [standards, field] of cases) {
      const res = await create(teacher, { standards });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(Object.keys(res.body.fields ?? {}), JSON.stringify(res.body)).toEqual([field]);
    }
    const tooMany = await create(teacher, { standards: Array.from({ length: 11 }, () => randomUUID()) });
    expect([tooMany.status, Object.keys(tooMany.body.fields)]).toEqual([400, ['standards']]);
    const notAList = await create(teacher, { standards: RATIO.identifier });
    expect([notAList.status, Object.keys(notAList.body.fields)]).toEqual([400, ['standards']]);
    expect((await h.sql.query('select count(*)::int as n from assessments')).rows[0].n).toBe(before);
  });

  it('when no standards are chosen, then the assessment has none and the labels are as given', async () => {
    const res = await create(teacher, { standard: '', topic: 'Fractions' });
    expect(res.status).toBe(201);
    expect([res.body.standards, res.body.standard, res.body.topic]).toEqual([[], '', 'Fractions']);
  });
});

describe("a question's alignment", () => {
  async function assessment() {
    const res = await create(teacher, { standards: [RATIO.identifier] });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }
  const questionsChanged = async (id: string) =>
    (await outboxFor(h, id))
      .filter((e) => e.type === 'QuestionsChanged')
      .map(
        (e) =>
          (e.message as { questions: { questionId: string; standards: { identifier: string; code: string }[] }[] })
            .questions,
      );

  it('when a question is added with standards and edited, then its teacher reads them and QuestionsChanged carries them', async () => {
    const id = await assessment();
    const added = await call(h, teacher, 'POST', `/api/assessments/${id}/questions`, {
      ...MC,
      standards: [RATIO.identifier, PLATFORM.identifier],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.standards).toEqual([refOf(RATIO), refOf(PLATFORM)]);

    const plain = await call(h, teacher, 'POST', `/api/assessments/${id}/questions`, MC);
    expect(plain.body.standards).toEqual([]);

    const list = await call(h, teacher, 'GET', `/api/assessments/${id}/questions`);
    expect(list.body.map((q: { standards: unknown }) => q.standards)).toEqual([[refOf(RATIO), refOf(PLATFORM)], []]);

    // An edit without standards keeps them; with standards replaces them; [] clears them.
    const text = await call(h, teacher, 'PUT', `/api/questions/${added.body.id}`, { ...MC, questionText: 'Which?' });
    expect(text.body.standards).toEqual([refOf(RATIO), refOf(PLATFORM)]);
    const moved = await call(h, teacher, 'PUT', `/api/questions/${added.body.id}`, {
      ...MC,
      standards: [RATE.identifier],
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.standards).toEqual([refOf(RATE)]);
    const last = (await questionsChanged(id)).at(-1)!;
    expect(last.map((q) => q.standards.map((s) => s.code))).toEqual([[RATE.code], []]);

    const dup = await call(h, teacher, 'POST', `/api/questions/${added.body.id}/duplicate`);
    expect(dup.body.standards).toEqual([refOf(RATE)]);
    const cleared = await call(h, teacher, 'PUT', `/api/questions/${added.body.id}`, { ...MC, standards: [] });
    expect(cleared.body.standards).toEqual([]);
  });

  it('when an edit names a standard outside the catalogue, then 400 names standards[i] and the alignment stays', async () => {
    const id = await assessment();
    const added = await call(h, teacher, 'POST', `/api/assessments/${id}/questions`, {
      ...MC,
      standards: [RATIO.identifier],
    });
    for (const bad of ['CCSS.Math.Content.6.RP.A.7', FOREIGN.identifier, OLD.identifier]) {
      const res = await call(h, teacher, 'PUT', `/api/questions/${added.body.id}`, {
        ...MC,
        questionText: 'Changed?',
        standards: [RATIO.identifier, bad],
      });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.fields)).toEqual(['standards[1]']);
    }
    const refusedAdd = await call(h, teacher, 'POST', `/api/assessments/${id}/questions`, {
      ...MC,
      standards: [FOREIGN.identifier],
    });
    expect([refusedAdd.status, Object.keys(refusedAdd.body.fields)]).toEqual([400, ['standards[0]']]);
    const list = await call(h, teacher, 'GET', `/api/assessments/${id}/questions`);
    expect(list.body.map((q: { questionText: string; standards: unknown }) => [q.questionText, q.standards])).toEqual([
      [MC.questionText, [refOf(RATIO)]],
    ]);
  });

  it('when the standard a question is aligned to is withdrawn later, then an edit that keeps it still saves', async () => {
    const kept = item('CCSS.Math.Content.6.RP.A.3', 'Use ratio and rate reasoning to solve problems.');
    await givenFramework(tenant, [kept]);
    const id = await assessment();
    const added = await call(h, teacher, 'POST', `/api/assessments/${id}/questions`, {
      ...MC,
      standards: [kept.identifier],
    });
    await h.sql.query('update standard_items set withdrawn_at = now() where identifier = $1', [kept.identifier]);
    const res = await call(h, teacher, 'PUT', `/api/questions/${added.body.id}`, {
      ...MC,
      questionText: 'Still aligned?',
      standards: [kept.identifier],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.standards).toEqual([refOf(kept)]);
  });
});

describe('generated questions and the chosen standards', () => {
  const generated = (text: string, standardIdentifiers: string[]) => ({
    questionText: text,
    questionType: 'short_answer',
    options: [],
    correctAnswer: 'ratio',
    points: 1,
    standardIdentifiers,
  });
  const deliverGenerated = (assessmentId: string, questions: ReturnType<typeof generated>[]) =>
    deliver(
      h,
      QuestionsGeneratedSchema,
      { jobId: randomUUID(), assessmentId, tenantId: tenant, provider: 'openai', questions },
      { key: assessmentId, tenantId: tenant, source: 'generation' },
    );

  it('when an item names a standard the teacher did not choose, then it is refused and recorded; the others are stored aligned', async () => {
    const res = await create(teacher, { standards: [RATIO.identifier, RATE.identifier] });
    await deliverGenerated(res.body.id, [
      generated('What compares two quantities?', [RATIO.identifier]),
      generated('What compares two quantities by division, per one?', [RATE.identifier, RATIO.identifier]),
      // An invented code, and a real one the teacher did not choose for this assessment.
      generated('Invented?', ['CCSS.Math.Content.6.RP.A.7']),
      generated('Not chosen?', [PLATFORM.identifier]),
      generated('Not aligned to anything?', []),
    ]);
    const list = await call(h, teacher, 'GET', `/api/assessments/${res.body.id}/questions`);
    expect(
      list.body.map((q: { questionText: string; standards: { code: string }[] }) => [
        q.questionText,
        q.standards.map((s) => s.code),
      ]),
    ).toEqual([
      ['What compares two quantities?', [RATIO.code]],
      ['What compares two quantities by division, per one?', [RATIO.code, RATE.code]],
      ['Not aligned to anything?', []],
    ]);
    const detail = await call(h, teacher, 'GET', `/api/assessments/${res.body.id}`);
    expect(detail.body.generationStatus).toBe('ready');
    expect(detail.body.generationError).toBe(
      '2 generated questions were left out: they named a standard not chosen for this assessment.',
    );
    const [changed] = (await outboxFor(h, res.body.id)).filter((e) => e.type === 'QuestionsChanged');
    const qs = (changed!.message as { questions: { standards: { identifier: string }[] }[] }).questions;
    expect(qs.map((q) => q.standards.map((s) => s.identifier))).toEqual([
      [RATIO.identifier],
      [RATIO.identifier, RATE.identifier],
      [],
    ]);
  });

  it('when every item names an invented standard, then none is stored and the generation fails saying why', async () => {
    const res = await create(teacher, { standards: [RATIO.identifier] });
    await deliverGenerated(res.body.id, [generated('Invented?', ['CCSS.Math.Content.6.RP.A.7'])]);
    const detail = await call(h, teacher, 'GET', `/api/assessments/${res.body.id}`);
    expect([detail.body.generationStatus, detail.body.questionCount]).toEqual(['failed', 0]);
    expect(detail.body.generationError).toMatch(/named a standard not chosen for this assessment/);
  });
});
