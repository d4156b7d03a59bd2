// The routes integrations calls for an LTI launch (docs/adr/014-lti.md): a course's class created
// with the instructor as its teacher, members brought in, only for integrations' own service token,
// and never a class of another tenant.
import { randomUUID } from 'node:crypto';
import { ServiceTokens } from '@checkpoint/service-kit';
import { TEST_SERVICE_TOKEN_SECRET } from '@checkpoint/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startClassService, type Harness } from './helpers.ts';

let h: Harness;
const integrations = new ServiceTokens(TEST_SERVICE_TOKEN_SECRET, { issuer: 'integrations' });

beforeAll(async () => {
  h = await startClassService();
}, 120_000);
afterAll(() => h?.stop(), 60_000);

async function internal(path: string, body: unknown, headers?: Record<string, string>) {
  const res = await fetch(h.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(headers ?? (await integrations.headers('class'))) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('internal LTI routes', () => {
  it('refuse calls without a valid service token, and the gateway’s', async () => {
    const body = { tenantId: randomUUID(), teacherId: randomUUID(), name: 'Biology' };
    expect((await internal('/internal/lti/classes', body, {})).status).toBe(401);
    const gateway = new ServiceTokens(TEST_SERVICE_TOKEN_SECRET, { issuer: 'gateway' });
    expect((await internal('/internal/lti/classes', body, await gateway.headers('class'))).status).toBe(403);
    expect((await internal('/internal/lti/classes', { ...body, name: '' })).status).toBe(400);
  });

  it('create the course’s class for its instructor and bring its members in, within the tenant only', async () => {
    const tenantId = randomUUID();
    const teacherId = randomUUID();
    const created = await internal('/internal/lti/classes', { tenantId, teacherId, name: 'Biology 101 (LMS)' });
    expect(created.status).toBe(200);
    const classId = created.body.id as string;
    const mine = await call(h, { userId: teacherId, tenantId, role: 'teacher' }, 'GET', `/api/classes/${classId}`);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ name: 'Biology 101 (LMS)', subject: 'LMS course' });

    const studentId = randomUUID();
    const member = (tid: string, userId: string, role: string) =>
      internal(`/internal/lti/classes/${classId}/members`, { tenantId: tid, userId, role });
    expect((await member(tenantId, studentId, 'student')).body).toEqual({ classId, joined: true });
    expect((await member(tenantId, studentId, 'student')).body).toEqual({ classId, joined: false });
    expect((await member(tenantId, teacherId, 'teacher')).body).toEqual({ classId, joined: false });
    const coTeacher = randomUUID();
    expect((await member(tenantId, coTeacher, 'teacher')).body).toEqual({ classId, joined: true });
    // Another tenant never reaches it.
    expect((await member(randomUUID(), randomUUID(), 'student')).status).toBe(404);
    const { rows } = await h.sql.query('select count(*)::int as n from memberships where class_id = $1', [classId]);
    expect(rows[0].n).toBe(1);
  });
});
