// Join codes at the database: 1,000 created classes get 1,000 distinct valid codes, and a
// collision with an existing code is retried with a new code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classesRepository } from '../src/data-access/classes.repository.ts';
import { createPrisma, type Db } from '../src/data-access/prisma.ts';
import { classUseCases } from '../src/domain/classes.use-case.ts';
import { isValidJoinCode } from '../src/domain/join-code.ts';
import { classEventsPublisher } from '../src/messaging/class-events.publisher.ts';
import { actor, registerDistrictTeacher, startClassService, type Harness } from './helpers.ts';

let h: Harness;
let db: Db;
beforeAll(async () => {
  h = await startClassService();
  db = createPrisma(h.sql, 'class');
});
afterAll(async () => {
  await db?.$disconnect();
  await h?.stop();
});

describe('join codes in the database', () => {
  it('when 1,000 classes are created, then they have 1,000 distinct valid codes', async () => {
    const classes = classUseCases({ classes: classesRepository(db, classEventsPublisher()) });
    const t = actor('teacher');
    // A district's teacher: the Free Trial's 3 classes do not apply.
    await registerDistrictTeacher(h, t);
    const owner = { tenantId: t.tenantId, teacherId: t.userId };
    const batch = 20;
    for (let i = 0; i < 1000; i += batch) {
      await Promise.all(
        Array.from({ length: batch }, (_, j) =>
          classes.createClass(owner, { name: `Class ${i + j}`, subject: 'Math', period: '1' }),
        ),
      );
    }
    const { rows } = await h.sql.query<{ join_code: string }>('select join_code from classes where teacher_id = $1', [
      t.userId,
    ]);
    expect(rows).toHaveLength(1000);
    const codes = rows.map((r) => r.join_code);
    expect(new Set(codes).size).toBe(1000);
    expect(codes.every(isValidJoinCode)).toBe(true);
  }, 120_000);

  it('when a generated code is already taken, then another code is tried', async () => {
    const first = classUseCases({ classes: classesRepository(db, classEventsPublisher()) });
    const t = actor('teacher');
    const owner = { tenantId: t.tenantId, teacherId: t.userId };
    const taken = await first.createClass(owner, { name: 'First', subject: 'Math', period: null });
    const codes = [taken.joinCode, taken.joinCode, 'NEWCD23'];
    const colliding = classUseCases({
      classes: classesRepository(db, classEventsPublisher()),
      newJoinCode: () => codes.shift()!,
    });
    const second = await colliding.createClass(owner, { name: 'Second', subject: 'Math', period: null });
    expect(second.joinCode).toBe('NEWCD23');
    // The failed attempts left no class and no event behind.
    const { rows } = await h.sql.query(
      'select count(*)::int as n from outbox where type like $1 and key in (select id::text from classes where teacher_id = $2)',
      ['%ClassCreated', t.userId],
    );
    expect(rows[0].n).toBe(2);
    const all = await h.sql.query('select count(*)::int as n from outbox where type like $1', ['%ClassCreated']);
    const classCount = await h.sql.query('select count(*)::int as n from classes');
    expect(all.rows[0].n).toBe(classCount.rows[0].n);
  });

  it('when every try collides, then creation fails instead of looping', async () => {
    const t = actor('teacher');
    const owner = { tenantId: t.tenantId, teacherId: t.userId };
    const base = classUseCases({ classes: classesRepository(db, classEventsPublisher()) });
    const taken = await base.createClass(owner, { name: 'Taken', subject: 'Math', period: null });
    const stuck = classUseCases({
      classes: classesRepository(db, classEventsPublisher()),
      newJoinCode: () => taken.joinCode,
    });
    await expect(stuck.createClass(owner, { name: 'Never', subject: 'Math', period: null })).rejects.toThrow();
  });
});
