// identity's user events → local names: renames show up in teacherName and rosters; redelivery
// of an event is harmless.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actor, call, deliverUserEvent, startClassService, VALID_CLASS, type Harness } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startClassService();
});
afterAll(async () => {
  await h?.stop();
});

describe('user events consumer', () => {
  it('when the teacher is not known yet, then teacherName is null (the web shows Unknown)', async () => {
    const teacher = actor('teacher');
    const cls = (await call(h, teacher, 'POST', '/api/classes', VALID_CLASS)).body;
    expect(cls.teacherName).toBeNull();
  });

  it('when a teacher registers and is then renamed, then teacherName follows', async () => {
    const teacher = actor('teacher');
    const cls = (await call(h, teacher, 'POST', '/api/classes', VALID_CLASS)).body;
    await deliverUserEvent(h, 'registered', { ...teacher, firstName: 'Grace', lastName: 'Hopper' });
    expect((await call(h, teacher, 'GET', `/api/classes/${cls.id}`)).body.teacherName).toBe('Grace Hopper');
    await deliverUserEvent(h, 'updated', { ...teacher, firstName: 'Grace', lastName: 'Murray' });
    expect((await call(h, teacher, 'GET', `/api/classes/${cls.id}`)).body.teacherName).toBe('Grace Murray');
    const s = actor('student');
    await call(h, s, 'POST', '/api/classes/join', { joinCode: cls.joinCode });
    expect((await call(h, s, 'GET', '/api/student/classes')).body[0].class.teacherName).toBe('Grace Murray');
  });

  it('when the same event is delivered again, then it is applied once and later changes are not undone', async () => {
    const student = actor('student');
    const registered = await deliverUserEvent(h, 'registered', { ...student, firstName: 'Alan', lastName: 'Turing' });
    await deliverUserEvent(h, 'updated', { ...student, firstName: 'Alan M.', lastName: 'Turing' });
    // Redelivery of the (older) registration: the inbox has it, so the rename stays.
    await deliverUserEvent(h, 'registered', { ...student, firstName: 'Alan', lastName: 'Turing' }, registered);
    const { rows } = await h.sql.query('select first_name from people where user_id = $1', [student.userId]);
    expect(rows).toEqual([{ first_name: 'Alan M.' }]);
    const inbox = await h.sql.query(
      'select count(*)::int as n from inbox where consumer_group = $1 and event_id = $2',
      ['class', registered],
    );
    expect(inbox.rows[0].n).toBe(1);
  });

  it('when a student is renamed, then the class roster shows the new name', async () => {
    const teacher = actor('teacher');
    const student = actor('student');
    const cls = (await call(h, teacher, 'POST', '/api/classes', VALID_CLASS)).body;
    await call(h, student, 'POST', '/api/classes/join', { joinCode: cls.joinCode });
    expect((await call(h, teacher, 'GET', `/api/classes/${cls.id}/students`)).body[0].student.firstName).toBeNull();
    await deliverUserEvent(h, 'registered', {
      ...student,
      firstName: 'Kat',
      lastName: 'Johnson',
      email: 'kat@example.test',
    });
    await deliverUserEvent(h, 'updated', {
      ...student,
      firstName: 'Katherine',
      lastName: 'Johnson',
      email: 'kj@example.test',
    });
    expect((await call(h, teacher, 'GET', `/api/classes/${cls.id}/students`)).body[0].student).toMatchObject({
      firstName: 'Katherine',
      lastName: 'Johnson',
      email: 'kj@example.test',
    });
  });

  it('when an event of a type this service does not use arrives, then it is acknowledged and skipped', async () => {
    await expect(
      h.bus.publish([
        {
          topic: 'checkpoint.identity.v1',
          key: randomUUID(),
          value: new Uint8Array(),
          headers: { ce_id: randomUUID(), ce_type: 'checkpoint.identity.v1.SomethingNew' },
        },
      ]),
    ).resolves.toBeUndefined();
    expect(h.bus.deadLetters).toEqual([]);
  });
});
