// The admin dashboard's people counts agree with the district's Users page: teachers are
// the accounts whose role is teacher (an admin is not one), and a removed (disabled) account is no
// longer counted.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserRegisteredSchema, UserUpdatedSchema } from '@checkpoint/events';
import {
  actor,
  call,
  classStory,
  event,
  eventually,
  figuresAndRecount,
  startAnalyticsService,
  type Harness,
  type Story,
} from './helpers.ts';

let h: Harness;
let story: Story;
const adminId = randomUUID();
const removedId = randomUUID();

function person(userId: string, role: string, email: string, disabled?: boolean) {
  const schema = disabled === undefined ? UserRegisteredSchema : UserUpdatedSchema;
  return event(
    schema as typeof UserUpdatedSchema,
    {
      userId,
      tenantId: story.tenantId,
      email,
      firstName: 'Pat',
      lastName: role,
      role,
      ...(disabled ? { disabled } : {}),
    },
    userId,
    story.tenantId,
  );
}

beforeAll(async () => {
  h = await startAnalyticsService();
  story = classStory();
  await h.bus.publish([
    ...story.events,
    person(adminId, 'admin', 'admin@example.test'),
    person(removedId, 'teacher', 'gone@example.test'),
  ]);
});
afterAll(() => h?.stop());

const stats = async () => (await call(h, actor('admin', story.tenantId), 'GET', '/api/admin/stats')).body;

describe('admin stats: people', () => {
  it('when the district has an admin and a second teacher, then Teachers counts the two teachers, not the admin', async () => {
    await eventually(stats, (s) => s.totalUsers === 6 && s.totalResponses === 3);
    expect(await stats()).toMatchObject({ totalUsers: 6, totalTeachers: 2, totalStudents: 3 });
  });

  it('when the admin removes a teacher, then the counts leave the removed account out, as the Users page does', async () => {
    await h.bus.publish([person(removedId, 'teacher', 'gone@example.test', true)]);
    await eventually(stats, (s) => s.totalTeachers === 1);
    expect(await stats()).toMatchObject({ totalUsers: 5, totalTeachers: 1, totalStudents: 3 });
    const { kept, recount } = await figuresAndRecount(h, story.tenantId);
    expect(kept).toEqual(recount);
  });
});
