// The OpenAPI document says what the server takes, no more and no less (schemathesis checks the
// same at random, e2e/schemathesis/run.ts): for each probe the document's verdict (valid or not)
// must be the server's (anything but 400, or 400). The probes are where the two disagreed: text
// that is blank or only too long before trimming, emails, bodies left out, an empty preference
// change, the two shapes of an assessment and its question count, join codes, the rules of each
// question type, and report class lists.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApiDocument } from '../../app/src/openapi-document.ts';
import { Client, eventually, signUp, startBackend, type Backend, type ClassJson } from './helpers.ts';

interface Operation {
  parameters?: { in: string; name: string; required?: boolean; schema: object }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: object }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
}
type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, object> } };

let backend: Backend;
let doc: Document;
let teacher: Client;
let student: Client;
let cls: ClassJson;
let ajv: Ajv2020;

beforeAll(async () => {
  backend = await startBackend({
    RATE_LIMIT_PROFILE_PER_MINUTE: '10000',
    RATE_LIMIT_JOIN_PER_MINUTE: '10000',
    RATE_LIMIT_JOIN_LOOKUP_PER_MINUTE: '10000',
  });
  doc = (await (await fetch(`${backend.url}/api/openapi.json`)).json()) as Document;
  ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  ajv.addSchema({ $id: 'doc', components: doc.components });
  teacher = await signUp(backend.url, 'teacher');
  student = await signUp(backend.url, 'student');
  cls = (await teacher.post('/api/classes', { name: 'Agreement', subject: 'Maths' })).body;
});

afterAll(async () => {
  await backend?.stop();
});

const operation = (method: string, path: string) => {
  const op = doc.paths[path]?.[method.toLowerCase()];
  if (!op) throw new Error(`${method} ${path} is not in the document`);
  return op;
};

/** The document's verdict on a JSON body (undefined: none sent). */
function documentTakes(method: string, path: string, body: unknown): boolean {
  const op = operation(method, path);
  if (body === undefined) return !op.requestBody?.required;
  const schema = op.requestBody?.content['application/json']?.schema;
  if (!schema) throw new Error(`${method} ${path} has no JSON body`);
  const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
  return ajv.validate(rewritten, body);
}

/** The document's verdict on one query parameter's value. */
function documentTakesQuery(method: string, path: string, name: string, value: string): boolean {
  const param = operation(method, path).parameters?.find((p) => p.in === 'query' && p.name === name);
  if (!param) throw new Error(`${method} ${path} has no query parameter ${name}`);
  return ajv.validate(param.schema, value);
}

const BLANKS = ' \t\u00a0\u3000\ufeff';

/** Sends the probe and compares; `template` is the document's path when `path` has ids in it. */
async function agree(c: Client, method: string, path: string, body: unknown, template = path) {
  const res = await c.request(method, path, body);
  const probe = `${method} ${template} ${JSON.stringify(body)?.slice(0, 120)}`;
  expect({ probe, documentTakes: res.status !== 400 }).toEqual({
    probe,
    documentTakes: documentTakes(method, template, body),
  });
}

describe('the OpenAPI document and the server', () => {
  it('when a text is blank, or too long only before trimming, then both refuse it; padded valid text both take', async () => {
    const id = cls.id;
    for (const name of [BLANKS, ` ${'n'.repeat(100)} `, `  ${'n'.repeat(98)}  `, ' Padded name '])
      await agree(teacher, 'PUT', `/api/classes/${id}`, { name, subject: 'Maths', period: '2' }, '/api/classes/{id}');
    for (const period of [BLANKS, `${'p'.repeat(50)}${BLANKS}`, null])
      await agree(teacher, 'POST', '/api/classes', { name: 'Probe', subject: 'Maths', period });
    for (const firstName of [BLANKS, ' Ada '])
      await agree(teacher, 'PUT', '/api/auth/user', {
        firstName,
        lastName: 'Lovelace',
        email: teacher.user!.email,
      });
  });

  it('when an email is odd, then the document and the server judge it alike', async () => {
    const emails = ['', 'plain', 'a@b.c', '.a@b.co', 'a..b@c.co', "a'@b.co", "o'neil@b.co", ` ${'x'}@example.org `];
    for (const email of emails)
      await agree(new Client(backend.url), 'POST', '/api/auth/simple-login', { email, password: 'wrong password' });
  });

  it('when a body is left out or empty, then the document says whether the server takes that', async () => {
    await agree(teacher, 'PUT', '/api/auth/user', undefined);
    await agree(teacher, 'PATCH', '/api/auth/user/preferences', {});
    await agree(teacher, 'PATCH', '/api/auth/user/preferences', { darkMode: true });
    await agree(teacher, 'POST', '/api/assessments', undefined);
    await agree(student, 'POST', '/api/classes/join', undefined);
    const submit = '/api/support-content/{resultId}/submit';
    await agree(
      student,
      'POST',
      submit.replace('{resultId}', '00000000-0000-4000-8000-000000000000'),
      undefined,
      submit,
    );
  });

  it('when an assessment is created in either shape, then the document takes what the server takes', async () => {
    const base = { title: 'Probe', classId: cls.id, questionType: 'multiple_choice' };
    const content = 'Fractions name parts of a whole.';
    await eventually(
      () => teacher.post('/api/assessments', { ...base, contentToAssess: content }),
      (r) => r.status === 201,
    );
    const probes: unknown[] = [
      { ...base, contentToAssess: content },
      { ...base, topic: content }, // the content may come from the topic
      { ...base, contentToAssess: null, standard: content },
      { ...base, contentToAssess: BLANKS, topic: content }, // the first given source decides
      { title: 'Probe', class_id: cls.id, questions: { type: 'true_false', count: 3, instructions: content } },
      { title: 'Probe', classId: cls.id, questions: 'x', topic: content, questionType: 'mixed' },
      { ...base, topic: content, numberOfQuestions: 'many' }, // non-numeric text counts as 1 question
      { ...base, topic: content, numberOfQuestions: '0' },
      { ...base, topic: content, numberOfQuestions: ' +20 apples' },
      { ...base, topic: content, numberOfQuestions: '021' },
      { ...base, topic: content, numberOfQuestions: 20.9 },
      { ...base, topic: content, numberOfQuestions: 0.5 },
      { ...base, topic: content, numberOfQuestions: true },
      { ...base, topic: content, numberOfQuestions: [5] },
      { ...base, questionType: 'essay', topic: content },
      { title: 'Probe', topic: content, questionType: 'mixed' },
    ];
    for (const body of probes) await agree(teacher, 'POST', '/api/assessments', body);
  });

  it('when an assessment is edited or toggled, then the document takes exactly those two shapes', async () => {
    const created = await teacher.post('/api/assessments', {
      title: 'Edit me',
      classId: cls.id,
      questionType: 'short_answer',
      contentToAssess: 'Decimals.',
    });
    const path = `/api/assessments/${created.body.id}`;
    for (const body of [
      { isActive: false },
      { isActive: 'no' },
      {},
      { title: 'T', topic: 'Decimals', extra: 1 },
      { title: 'T', topic: BLANKS },
      { title: 'T', topic: 'x', isActive: true },
    ])
      await agree(teacher, 'PUT', path, body, '/api/assessments/{id}');
  });

  it('when a join code is padded, too long or badly made, then the document judges it as the server does', async () => {
    const code = cls.joinCode;
    const probes = [
      code,
      ` ${code.toLowerCase()} `, // blanks around it are dropped
      `  ${code}\u00a0\t `, // more than 8 as sent, not once trimmed
      'ABCDEFGH',
      'ABC DEF',
      'ABCDE',
      '  abc  ',
      'ABCDEFGHJ',
    ];
    for (const joinCode of probes) await agree(student, 'POST', '/api/classes/join', { joinCode });
  });

  it('when a question breaks a rule of its type or its points, then the document refuses it as the server does', async () => {
    const created = await teacher.post('/api/assessments', {
      title: 'Questions',
      classId: cls.id,
      questionType: 'short_answer',
      contentToAssess: 'Decimals.',
    });
    const add = `/api/assessments/${created.body.id}/questions`;
    const MC = {
      questionText: 'Which?',
      questionType: 'multiple_choice',
      options: ['a', 'b', 'c', 'd'],
      correctAnswer: 'b',
    };
    const probes: unknown[] = [
      MC,
      { ...MC, options: ['a', 'b', 'c', ''] }, // a blank entry is no option
      { ...MC, options: ['a', null, 'b', 'c', 'd', ' '] }, // a list is the 4 inputs, none blank
      { ...MC, options: ['a', 'b', 'c', 'd', 'e'] },
      { ...MC, options: [1, true, 'c', 'b'] },
      { ...MC, options: 'a, b, c, d' },
      { ...MC, options: undefined }, // a new question has no stored options
      { ...MC, options: null },
      { ...MC, questionType: 'true_false', correctAnswer: ' TRUE ' },
      { ...MC, questionType: 'true_false', correctAnswer: 'f' },
      { ...MC, questionType: 'true_false', correctAnswer: 'yes' },
      { ...MC, questionType: 'true_false', correctAnswer: 'parts', options: undefined },
      { ...MC, questionType: 'short_answer', correctAnswer: 'parts', options: '' },
    ];
    for (const body of probes) await agree(teacher, 'POST', add, body, '/api/assessments/{id}/questions');
    const question = (await teacher.post(add, MC)).body as { id: string };
    const edit = `/api/questions/${question.id}`;
    for (const body of [
      { ...MC, options: undefined, correctAnswer: 'C' }, // the stored options stay
      { ...MC, options: ['a', 'b', 'c'] },
      { ...MC, questionType: 'true_false', correctAnswer: 'maybe' },
      { ...MC, questionType: 'true_false', correctAnswer: 'False' },
      // Points left out, as text (the web sends them so) or out of range.
      ...[null, '', '2', ' 2.5 ', '.5', '100.0', '0.001', '150', '1e1', '+5', ' ', 0, 100.5].map((points) => ({
        ...MC,
        points,
      })),
    ])
      await agree(teacher, 'PUT', edit, body, '/api/questions/{id}');
  });

  it('when a report names classes, then the document takes exactly the lists the server takes', async () => {
    const id = cls.id;
    const lists = [
      id,
      ` ${id} ,, ${id.toUpperCase()} `,
      '00000000-0000-0000-0000-000000000000',
      'not-a-class',
      `${id};${id}`,
      Array.from({ length: 201 }, () => id).join(','),
      Array.from({ length: 200 }, () => id).join(','),
    ];
    for (const classIds of lists) {
      const res = await teacher.get(`/api/reports?classIds=${encodeURIComponent(classIds)}`);
      expect({ classIds: classIds.slice(0, 80), documentTakes: res.status !== 400 }).toEqual({
        classIds: classIds.slice(0, 80),
        documentTakes: documentTakesQuery('GET', '/api/reports', 'classIds', classIds),
      });
    }
  });

  it('when a student is removed while the class is deleted or removed again, then no call answers 500', async () => {
    for (let round = 0; round < 5; round++) {
      const owner = await signUp(backend.url, 'teacher'); // the trial allows 3 classes per teacher
      const spare = (await owner.post('/api/classes', { name: 'Twice', subject: 'Maths' })).body as ClassJson;
      expect((await student.post('/api/classes/join', { joinCode: spare.joinCode })).status).toBe(200);
      const member = `/api/classes/${spare.id}/students/${student.user!.id}`;
      const calls = [owner.del(member), owner.del(member), owner.del(`/api/classes/${spare.id}`), owner.del(member)];
      const statuses = (await Promise.all(calls)).map((r) => r.status);
      expect(
        statuses.every((s) => s === 204 || s === 404),
        String(statuses),
      ).toBe(true);
    }
  });

  it('when a call answers a file or an event stream, then the document names its media types', () => {
    const types = (method: string, path: string) =>
      Object.keys(operation(method, path).responses['200']?.content ?? {});
    expect(types('GET', '/api/reports/export')).toEqual(['text/csv', 'application/pdf']);
    expect(types('GET', '/api/dashboard/live')).toEqual(['text/event-stream']);
    // What Node and the body parser answer before any route: a too long query (no body), a too large body.
    expect(operation('GET', '/api/reports').responses['431']).toEqual({ description: expect.any(String) });
    expect(Object.keys(operation('POST', '/api/classes').responses['413']?.content ?? {})).toEqual([
      'application/json',
    ]);
  });

  it('when the document is built offline for the web (npm run generate:api), then it is the one the gateway serves', () => {
    expect(buildApiDocument()).toEqual(doc);
  });
});
