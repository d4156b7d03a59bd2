import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Browser, startHarness, type Harness } from './helpers.ts';

let h: Harness;
const printed: string[] = [];
beforeAll(async () => {
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    printed.push(args.join(' '));
  });
  h = await startHarness({ DEMO_SEED: 'true' });
}, 120_000);
afterAll(async () => {
  vi.restoreAllMocks();
  await h?.stop();
}, 60_000);

describe('demo seed', () => {
  it('when DEMO_SEED is on and there are no users, then a demo admin, teacher, student and three classmates are created once and the first three printed', async () => {
    const block = printed.find((p) => p.includes('Demo accounts:'));
    expect(block).toBeDefined();
    const adminPassword = /admin@demo\.checkpoint\.school\s+\/\s+password (\S+)/.exec(block!)?.[1];
    const teacherPassword = /teacher@demo\.checkpoint\.school\s+\/\s+password (\S+)/.exec(block!)?.[1];
    const studentPassword = /student@demo\.checkpoint\.school\s+\/\s+password (\S+)/.exec(block!)?.[1];
    expect(adminPassword).toBeTruthy();
    expect(teacherPassword).toBeTruthy();
    expect(new Set([adminPassword, teacherPassword, studentPassword]).size).toBe(3);

    const teacher = await new Browser(h.identity.url).request('POST', '/api/auth/simple-login', {
      email: 'teacher@demo.checkpoint.school',
      password: teacherPassword,
    });
    expect(teacher).toMatchObject({ status: 200, body: { user: { role: 'teacher', accountType: 'district' } } });
    const student = await new Browser(h.identity.url).request('POST', '/api/auth/simple-login', {
      email: 'student@demo.checkpoint.school',
      password: studentPassword,
    });
    expect(student).toMatchObject({
      status: 200,
      body: { user: { role: 'student', tenantId: teacher.body.user.tenantId } },
    });
    const admin = await new Browser(h.identity.url).request('POST', '/api/auth/simple-login', {
      email: 'admin@demo.checkpoint.school',
      password: adminPassword,
    });
    expect(admin).toMatchObject({
      status: 200,
      body: { user: { role: 'admin', accountType: 'district', tenantId: teacher.body.user.tenantId } },
    });
    const hashes = await h.db.query(
      `select c.password_hash from credentials c join users u on u.id = c.user_id where u.email = 'admin@demo.checkpoint.school'`,
    );
    expect(hashes.rows[0].password_hash).toMatch(/^\$argon2id\$/);
    const tenant = await h.db.query(`select name, kind, email_domains from tenants where id = $1`, [
      teacher.body.user.tenantId,
    ]);
    expect(tenant.rows[0]).toEqual({
      name: 'Demo District',
      kind: 'district',
      email_domains: ['demo.checkpoint.school'],
    });
    const events = await h.db.query(
      `select count(*)::int as n from outbox where type = 'checkpoint.identity.v1.UserRegistered'`,
    );
    expect(events.rows[0].n).toBe(6);
    // The classmates carry names (the class and results pages show them) and are not printed.
    const classmates = await h.db.query(
      `select first_name, last_name, role, tenant_id from users where email not in ($1, $2, $3) order by first_name`,
      ['admin@demo.checkpoint.school', 'teacher@demo.checkpoint.school', 'student@demo.checkpoint.school'],
    );
    expect(classmates.rows).toEqual(
      ['Ava Lopez', 'Ben Okafor', 'Chloe Nguyen'].map((name) => ({
        first_name: name.split(' ')[0],
        last_name: name.split(' ')[1],
        role: 'student',
        tenant_id: teacher.body.user.tenantId,
      })),
    );
    expect(block).not.toContain('ava.lopez');

    printed.length = 0;
    const again = await h.start({ DEMO_SEED: 'true', DEMO_PASSWORD: 'demo-password' });
    expect(printed.join('\n')).not.toContain('Demo accounts:');
    const users = await h.db.query(`select count(*)::int as n from users`);
    expect(users.rows[0].n).toBe(6);
    await again.stop();
  });
});
