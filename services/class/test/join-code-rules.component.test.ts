// The join code's rules are the server's: 6 to 8 characters with the form's messages on joinCode,
// only the characters codes are made of (any case), and only a well-formed unknown code is 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actor, call, registerDistrictTeacher, startClassService, VALID_CLASS, type Harness } from './helpers.ts';

let h: Harness;
const teacher = actor('teacher');

beforeAll(async () => {
  h = await startClassService({ RATE_LIMIT_JOIN_PER_MINUTE: '1000' });
  await registerDistrictTeacher(h, teacher);
});
afterAll(async () => {
  await h?.stop();
});

const join = (joinCode: unknown, who = actor('student')) =>
  call(h, who, 'POST', '/api/classes/join', joinCode === undefined ? {} : { joinCode });

const TOO_SHORT = 'Join code must be at least 6 characters';
const TOO_LONG = 'Join code must be at most 8 characters';
const BAD_CHARACTER = 'Join code has only letters and the digits 2 to 9 (no I, L, O, 0 or 1)';

describe('join code rules', () => {
  it.each([
    ['ABCDE', TOO_SHORT],
    ['', TOO_SHORT],
    ['  abc  ', TOO_SHORT],
    ['ABCDEFGHJ', TOO_LONG],
    ['A'.repeat(40), TOO_LONG],
    ['ABC-EF', BAD_CHARACTER],
    ['ABC DEF', BAD_CHARACTER],
    ['ABCDE0', BAD_CHARACTER],
    ['ABCDEO', BAD_CHARACTER],
    ['ABCDE1', BAD_CHARACTER],
    ['abcdei', BAD_CHARACTER],
    ['ABCDEL', BAD_CHARACTER],
    ['ÀBCDEF', BAD_CHARACTER],
    ['ABCDEß', BAD_CHARACTER],
  ])('when the code is %j, then 400 on joinCode: %s', async (code, message) => {
    const res = await join(code);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ message, fields: { joinCode: message } });
  });

  it('when the code is missing or not text, then 400 Join code is required', async () => {
    for (const code of [undefined, null, 1234567, ['ABCDEF']]) {
      const res = await join(code);
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual({ joinCode: 'Join code is required' });
    }
  });

  it('when a well-formed code (6 to 8 characters, any case) is unknown, then 404 Class not found', async () => {
    for (const code of ['ZZZZZZ', 'zzzzzzz', 'ZZZZZZ22', ' QQQQQQ ']) {
      const res = await join(code);
      expect(res.status, code).toBe(404);
      expect(res.body.message).toBe('Class not found');
    }
  });

  it('when a real code is typed in lower case, then the student joins', async () => {
    const cls = (await call(h, teacher, 'POST', '/api/classes', VALID_CLASS)).body;
    const res = await join(cls.joinCode.toLowerCase());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ className: VALID_CLASS.name, classId: cls.id });
  });

  it('when a teacher sends a join code with a new or edited class, then the server keeps making its own', async () => {
    const cls = (await call(h, teacher, 'POST', '/api/classes', { ...VALID_CLASS, joinCode: 'AAAAAA' })).body;
    expect(cls.joinCode).not.toBe('AAAAAA');
    const edited = await call(h, teacher, 'PUT', `/api/classes/${cls.id}`, { ...VALID_CLASS, joinCode: 'BBBBBB' });
    expect(edited.status).toBe(200);
    expect(edited.body.joinCode).toBe(cls.joinCode);
    expect((await join('BBBBBB')).status).toBe(404);
  });
});
