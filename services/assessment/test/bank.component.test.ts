// The item bank against real Postgres: saving one of your questions or a new one, searching by
// words, type, standard, subject, grade and page; who sees private, school and district items;
// who may change them; and adding items to an assessment as copies, on the add-question rules.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClassCreatedSchema, TenantDeletedSchema, UserDeletedSchema, UserRegisteredSchema } from '@checkpoint/events';
import { actor, call, deliver, MC, startAssessmentService, VALID_CREATE, type Actor, type Harness } from './helpers.ts';

let h: Harness;
const district = randomUUID();
const author = actor('teacher', district); // school s1
const colleague = actor('teacher', district); // school s1
const otherSchool = actor('teacher', district); // school s2
const admin = actor('admin', district);
const stranger = actor('teacher', randomUUID()); // another district
const individual = actor('teacher', randomUUID()); // an individual account (Free Trial)
const ITEM = 'c0ffee00-0000-4000-8000-0000000000b1';

const SA = {
  questionText: 'Name the process by which water becomes vapour.',
  questionType: 'short_answer',
  correctAnswer: 'evaporation',
};
const TF = { questionText: 'Photosynthesis releases oxygen.', questionType: 'true_false', correctAnswer: 'true' };

beforeAll(async () => {
  h = await startAssessmentService({ RATE_LIMIT_ASSESSMENT_CREATE_PER_MINUTE: '1000' });
  for (const [who, kind] of [
    [author, 'district'],
    [colleague, 'district'],
    [otherSchool, 'district'],
    [admin, 'district'],
    [individual, 'individual'],
  ] as const)
    await deliver(
      h,
      UserRegisteredSchema,
      {
        userId: who.userId,
        tenantId: who.tenantId,
        email: `${who.userId}@example.org`,
        firstName: 'Ada',
        lastName: kind === 'individual' ? 'Solo' : 'Lovelace',
        role: who.role,
        tenantKind: kind,
      },
      { key: who.userId, tenantId: who.tenantId },
    );
  const framework = randomUUID();
  await h.sql.query(
    `insert into standard_frameworks (id, tenant_id, document_identifier, title) values ($1, $2, 'doc-bank', 'Science')`,
    [framework, district],
  );
  await h.sql.query(
    `insert into standard_items (id, framework_id, tenant_id, identifier, code, statement, uri)
     values ($1, $2, $3, $4, 'MS-ESS2-4', 'Develop a model of the cycling of water.', 'https://case.example/MS-ESS2-4')`,
    [randomUUID(), framework, district, ITEM],
  );
});
afterAll(async () => {
  await h?.stop();
});

async function classOf(t: Actor, schoolId: string, subject = 'Science', grades = ['07']): Promise<string> {
  const classId = randomUUID();
  await deliver(
    h,
    ClassCreatedSchema,
    {
      classId,
      tenantId: t.tenantId,
      teacherId: t.userId,
      name: `Class of ${schoolId || 'no school'}`,
      subject,
      period: '1',
      joinCode: 'BANK01',
      schoolId,
      schoolName: schoolId ? `School ${schoolId}` : '',
      grades,
    },
    { key: classId, tenantId: t.tenantId },
  );
  return classId;
}

async function assessmentOf(t: Actor, classId: string, labels = { topic: 'Water cycle', standard: 'MS-ESS2-4' }) {
  const created = await call(h, t, 'POST', '/api/assessments', { ...VALID_CREATE, ...labels, classId });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
}

async function questionIn(t: Actor, assessmentId: string, q: object = SA) {
  const added = await call(h, t, 'POST', `/api/assessments/${assessmentId}/questions`, q);
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return added.body as { id: string };
}

async function save(t: Actor, body: object) {
  const res = await call(h, t, 'POST', '/api/bank/items', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; visibility: string; questionText: string };
}

const search = async (t: Actor, query: string) => {
  const res = await call(h, t, 'GET', `/api/bank/items?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { items: { id: string; questionText: string }[]; hasMore: boolean; page: number };
};
const ids = (page: { items: { id: string }[] }) => page.items.map((i) => i.id);

let authorClass: string;
beforeAll(async () => {
  authorClass = await classOf(author, 's1');
  await classOf(colleague, 's1');
  await classOf(otherSchool, 's2', 'Mathematics', ['06']);
});

describe('saving to the bank', () => {
  it('when a teacher saves one of their questions, then the item copies it with its assessment’s labels and its class’s subject and grade', async () => {
    const assessmentId = await assessmentOf(author, authorClass);
    const q = await questionIn(author, assessmentId, {
      ...SA,
      acceptedAnswers: ['evaporating'],
      points: 2,
      standards: [ITEM],
    });
    const res = await call(h, author, 'POST', '/api/bank/items', { questionId: q.id, visibility: 'private' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      questionText: SA.questionText,
      questionType: 'short_answer',
      correctAnswer: 'evaporation',
      acceptedAnswers: ['evaporating'],
      points: 2,
      subject: 'Science',
      grade: '7',
      topic: 'Water cycle',
      standard: 'MS-ESS2-4',
      standards: [{ identifier: ITEM, code: 'MS-ESS2-4', uri: 'https://case.example/MS-ESS2-4' }],
      visibility: 'private',
      author: { id: author.userId, name: 'Ada Lovelace' },
      mine: true,
      canEdit: true,
    });
  });

  it('when a teacher saves a new question, then it is checked as a question and stored with its labels', async () => {
    const item = await call(h, author, 'POST', '/api/bank/items', {
      ...MC,
      visibility: 'district',
      subject: 'Mathematics',
      grade: '05',
      topic: 'Fractions',
      standards: [ITEM],
    });
    expect(item.status, JSON.stringify(item.body)).toBe(201);
    expect(item.body).toMatchObject({
      options: MC.options,
      grade: '5',
      visibility: 'district',
      standards: [{ identifier: ITEM }],
    });
    const bad = await call(h, author, 'POST', '/api/bank/items', { ...MC, options: ['a', 'b'], visibility: 'private' });
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toHaveProperty('options');
    const noText = await call(h, author, 'POST', '/api/bank/items', {
      questionType: 'true_false',
      visibility: 'private',
    });
    expect(noText.status).toBe(400);
    expect(noText.body.fields).toHaveProperty('questionText');
    const badVisibility = await call(h, author, 'POST', '/api/bank/items', { ...TF, visibility: 'world' });
    expect(badVisibility.status).toBe(400);
    expect(badVisibility.body.fields).toHaveProperty('visibility');
    const unknownStandard = await call(h, author, 'POST', '/api/bank/items', {
      ...TF,
      visibility: 'private',
      standards: ['nope'],
    });
    expect(unknownStandard.status).toBe(400);
    expect(unknownStandard.body.fields).toHaveProperty(['standards[0]']);
  });

  it('when the question is not the caller’s, then 404', async () => {
    const assessmentId = await assessmentOf(author, authorClass);
    const q = await questionIn(author, assessmentId);
    for (const who of [colleague, stranger]) {
      const res = await call(h, who, 'POST', '/api/bank/items', { questionId: q.id, visibility: 'private' });
      expect(res.status).toBe(404);
    }
    expect((await call(h, author, 'POST', '/api/bank/items', { questionId: 'x', visibility: 'private' })).status).toBe(
      404,
    );
  });

  it('when an individual account shares, then 400 naming visibility; its private bank works', async () => {
    await classOf(individual, '');
    for (const visibility of ['school', 'district']) {
      const res = await call(h, individual, 'POST', '/api/bank/items', { ...TF, visibility });
      expect(res.status).toBe(400);
      expect(res.body.fields.visibility).toMatch(/individual/);
    }
    const own = await save(individual, { ...TF, visibility: 'private' });
    expect(ids(await search(individual, ''))).toEqual([own.id]);
  });

  it('when a teacher without a school shares with the school, then 400 naming visibility', async () => {
    const noSchool = actor('teacher', district);
    await classOf(noSchool, '');
    const res = await call(h, noSchool, 'POST', '/api/bank/items', { ...TF, visibility: 'school' });
    expect(res.status).toBe(400);
    expect(res.body.fields).toHaveProperty('visibility');
  });
});

describe('who sees what', () => {
  it('when items are private, school and district, then each reader sees what is shared with them', async () => {
    const tag = `zebra${Date.now()}`;
    const mine = await save(author, { ...TF, questionText: `${tag} private`, visibility: 'private' });
    const school = await save(author, { ...TF, questionText: `${tag} school`, visibility: 'school' });
    const wide = await save(author, { ...TF, questionText: `${tag} district`, visibility: 'district' });
    const sorted = (xs: string[]) => [...xs].sort();
    expect(sorted(ids(await search(author, `q=${tag}`)))).toEqual(sorted([mine.id, school.id, wide.id]));
    expect(sorted(ids(await search(colleague, `q=${tag}`)))).toEqual(sorted([school.id, wide.id]));
    expect(ids(await search(otherSchool, `q=${tag}`))).toEqual([wide.id]);
    expect(sorted(ids(await search(admin, `q=${tag}`)))).toEqual(sorted([school.id, wide.id]));
    expect(ids(await search(stranger, `q=${tag}`))).toEqual([]);
    // Reading one: the same rule, 404 otherwise.
    expect((await call(h, colleague, 'GET', `/api/bank/items/${mine.id}`)).status).toBe(404);
    expect((await call(h, otherSchool, 'GET', `/api/bank/items/${school.id}`)).status).toBe(404);
    expect((await call(h, stranger, 'GET', `/api/bank/items/${wide.id}`)).status).toBe(404);
    const read = await call(h, colleague, 'GET', `/api/bank/items/${school.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ mine: false, canEdit: false, correctAnswer: 'True' });
    // Filters by visibility and by author.
    expect(ids(await search(author, `q=${tag}&visibility=school`))).toEqual([school.id]);
    expect(ids(await search(colleague, `q=${tag}&scope=mine`))).toEqual([]);
  });
});

describe('searching', () => {
  const tag = `quokka${Date.now()}`;
  const made: Record<string, string> = {};
  beforeAll(async () => {
    made.evaporation = (
      await save(author, {
        ...SA,
        questionText: `${tag} Which process turns water into vapour?`,
        visibility: 'private',
        subject: 'Science',
        grade: '7',
        topic: 'Water cycle',
      })
    ).id;
    made.fractions = (
      await save(author, {
        ...MC,
        questionText: `${tag} What is 1/2 + 1/4?`,
        visibility: 'private',
        subject: 'Mathematics',
        grade: '5',
        standard: 'Adding fractions',
      })
    ).id;
    made.aligned = (
      await save(author, {
        ...TF,
        questionText: `${tag} Clouds form when vapour condenses.`,
        visibility: 'private',
        subject: 'Science',
        grade: '6',
        standards: [ITEM],
      })
    ).id;
  });

  it('when searching by words, then the matching items come back (stems, the topic label too)', async () => {
    expect(ids(await search(author, `q=${tag} vapour`)).sort()).toEqual([made.evaporation, made.aligned].sort());
    expect(ids(await search(author, `q=${encodeURIComponent(`${tag} water cycle`)}`))).toEqual([made.evaporation]);
    expect(ids(await search(author, `q=${tag} condensing`))).toEqual([made.aligned]);
  });

  it('when filtering by type, standard, subject and grade, then only those items come back', async () => {
    expect(ids(await search(author, `q=${tag}&type=multiple_choice`))).toEqual([made.fractions]);
    expect(ids(await search(author, `q=${tag}&standard=${ITEM}`))).toEqual([made.aligned]);
    expect(ids(await search(author, `q=${tag}&standard=ms-ess2-4`))).toEqual([made.aligned]);
    expect(ids(await search(author, `q=${tag}&standard=${encodeURIComponent('Adding fractions')}`))).toEqual([
      made.fractions,
    ]);
    expect(ids(await search(author, `q=${tag}&subject=mathematics`))).toEqual([made.fractions]);
    expect(ids(await search(author, `q=${tag}&grade=06`))).toEqual([made.aligned]);
    expect(ids(await search(author, `q=${tag}&subject=Science&grade=7&type=short_answer`))).toEqual([made.evaporation]);
    const bad = await call(h, author, 'GET', '/api/bank/items?type=essay');
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toHaveProperty('type');
  });

  it('when there are more items than a page, then pages follow newest first and say whether more follow', async () => {
    const first = await search(author, `q=${tag}&pageSize=2`);
    expect(first).toMatchObject({ page: 1, hasMore: true });
    expect(ids(first)).toEqual([made.aligned, made.fractions]);
    const second = await search(author, `q=${tag}&pageSize=2&page=2`);
    expect(second).toMatchObject({ page: 2, hasMore: false });
    expect(ids(second)).toEqual([made.evaporation]);
    expect((await call(h, author, 'GET', '/api/bank/items?pageSize=500')).status).toBe(400);
  });
});

describe('changing an item', () => {
  it('when someone other than its author or an admin changes it, then 403 (404 when they cannot see it)', async () => {
    const shared = await save(author, { ...TF, visibility: 'district' });
    const edit = { ...TF, questionText: 'Changed by a colleague' };
    expect((await call(h, colleague, 'PUT', `/api/bank/items/${shared.id}`, edit)).status).toBe(403);
    expect((await call(h, colleague, 'DELETE', `/api/bank/items/${shared.id}`)).status).toBe(403);
    expect((await call(h, stranger, 'PUT', `/api/bank/items/${shared.id}`, edit)).status).toBe(404);
    const own = await save(author, { ...TF, visibility: 'private' });
    expect((await call(h, admin, 'PUT', `/api/bank/items/${own.id}`, edit)).status).toBe(404);
    // The district's admin may change and delete a shared item; its author too.
    const byAdmin = await call(h, admin, 'PUT', `/api/bank/items/${shared.id}`, {
      ...edit,
      questionText: 'Fixed by the admin',
    });
    expect(byAdmin.status, JSON.stringify(byAdmin.body)).toBe(200);
    expect(byAdmin.body).toMatchObject({ questionText: 'Fixed by the admin', visibility: 'district', canEdit: true });
    const byAuthor = await call(h, author, 'PUT', `/api/bank/items/${shared.id}`, { ...edit, visibility: 'private' });
    expect(byAuthor.body).toMatchObject({ visibility: 'private' });
    expect((await call(h, admin, 'DELETE', `/api/bank/items/${shared.id}`)).status).toBe(404);
    expect((await call(h, author, 'DELETE', `/api/bank/items/${shared.id}`)).status).toBe(204);
    expect((await call(h, author, 'GET', `/api/bank/items/${shared.id}`)).status).toBe(404);
  });
});

describe('adding items to an assessment', () => {
  it('when items are added, then they are copies: editing or deleting the item later changes nothing in the assessment', async () => {
    const item = await save(author, { ...SA, visibility: 'school', standards: [ITEM] });
    const other = await save(author, { ...TF, visibility: 'private' });
    const assessmentId = await assessmentOf(colleague, await classOf(colleague, 's1'));
    const notSeen = await call(h, colleague, 'POST', `/api/assessments/${assessmentId}/questions/from-bank`, {
      itemIds: [item.id, other.id],
    });
    expect(notSeen.status).toBe(400);
    expect(notSeen.body.fields).toHaveProperty(['itemIds[1]']);
    const added = await call(h, colleague, 'POST', `/api/assessments/${assessmentId}/questions/from-bank`, {
      itemIds: [item.id],
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toEqual([
      expect.objectContaining({
        questionText: SA.questionText,
        correctAnswer: 'evaporation',
        assessmentId,
        position: 1,
        standards: [expect.objectContaining({ identifier: ITEM })],
      }),
    ]);
    const questionId = added.body[0].id as string;
    expect(questionId).not.toBe(item.id);

    const edited = await call(h, author, 'PUT', `/api/bank/items/${item.id}`, {
      ...SA,
      questionText: 'Rewritten',
      correctAnswer: 'boiling',
    });
    expect(edited.status).toBe(200);
    const questions = await call(h, colleague, 'GET', `/api/assessments/${assessmentId}/questions`);
    expect(questions.body).toEqual([
      expect.objectContaining({ id: questionId, questionText: SA.questionText, correctAnswer: 'evaporation' }),
    ]);
    expect((await call(h, author, 'DELETE', `/api/bank/items/${item.id}`)).status).toBe(204);
    expect((await call(h, colleague, 'GET', `/api/assessments/${assessmentId}/questions`)).body).toHaveLength(1);
  });

  it('when the assessment is not the caller’s, full, submitted or a common copy, then refused as adding by hand is', async () => {
    const item = await save(author, { ...TF, visibility: 'district' });
    const assessmentId = await assessmentOf(author, authorClass);
    const add = (who: Actor, id = assessmentId, itemIds = [item.id]) =>
      call(h, who, 'POST', `/api/assessments/${id}/questions/from-bank`, { itemIds });
    expect((await add(colleague)).status).toBe(404);
    expect((await add(stranger)).status).toBe(404);
    expect((await add(author, randomUUID())).status).toBe(404);
    expect((await add(author, assessmentId, [])).status).toBe(400);

    // The question limit: 20 in all.
    for (let i = 0; i < 19; i++) await questionIn(author, assessmentId, TF);
    expect((await add(author, assessmentId, [item.id, item.id])).status).toBe(409);
    expect((await add(author)).status).toBe(201);
    expect((await add(author)).status).toBe(409);

    // Once a student submitted: none.
    const submitted = await assessmentOf(author, authorClass);
    await questionIn(author, submitted, TF);
    await h.sql.query(
      `insert into results (id, assessment_id, tenant_id, class_id, student_id, total_points, earned_points, percentage,
                            performance_level, correct_answers, incorrect_answers, total_questions, submitted_at)
       values ($1, $2, $3, $4, $5, 1, 1, 100, 'above', 1, 0, 1, now())`,
      [randomUUID(), submitted, district, authorClass, randomUUID()],
    );
    const afterSubmit = await add(author, submitted);
    expect(afterSubmit.status).toBe(409);
    expect(afterSubmit.body.code).toBe('has_submissions');

    // A class's copy of a district common assessment: locked.
    const common = await assessmentOf(author, authorClass);
    await h.sql.query('update assessments set common_assessment_id = $2 where id = $1', [common, randomUUID()]);
    const locked = await add(author, common);
    expect(locked.status).toBe(409);
    expect(locked.body.code).toBe('common_assessment_locked');
  });
});

describe('deletion with the district', () => {
  it('when the tenant is deleted, then its bank items go', async () => {
    const gone = actor('teacher', randomUUID());
    await save(gone, { ...TF, visibility: 'private' });
    const before = await h.sql.query('select count(*)::int as n from bank_items where tenant_id = $1', [gone.tenantId]);
    expect(before.rows[0].n).toBe(1);
    await deliver(
      h,
      TenantDeletedSchema,
      { tenantId: gone.tenantId, userIds: [gone.userId], requestId: randomUUID() },
      { key: gone.tenantId, tenantId: gone.tenantId },
    );
    const after = await h.sql.query('select count(*)::int as n from bank_items where tenant_id = $1', [gone.tenantId]);
    expect(after.rows[0].n).toBe(0);
  });

  it('when the author’s account is erased, then their items go with it (as their assessments do)', async () => {
    const leaving = actor('teacher', district);
    const item = await save(leaving, { ...TF, visibility: 'district' });
    expect((await call(h, colleague, 'GET', `/api/bank/items/${item.id}`)).status).toBe(200);
    await deliver(
      h,
      UserDeletedSchema,
      { userId: leaving.userId, tenantId: district },
      { key: leaving.userId, tenantId: district },
    );
    expect((await call(h, colleague, 'GET', `/api/bank/items/${item.id}`)).status).toBe(404);
  });
});
