// The user events carry the kind of the user's tenant (the class service's Free Trial limits), and
// users registered before that field get it once, republished at start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBinary, UserRegisteredSchema, UserUpdatedSchema } from '@checkpoint/events';
import { signUpByLink, startHarness, type Harness } from './helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ DEMO_SEED: 'true' });
}, 120_000);
afterAll(async () => {
  await h?.stop();
}, 60_000);

async function eventsOf(type: 'UserRegistered' | 'UserUpdated', userId: string) {
  const { rows } = await h.db.query<{ payload: Buffer }>(
    'select payload from outbox where type = $1 and key = $2 order by created_at',
    [`checkpoint.identity.v1.${type}`, userId],
  );
  const schema = type === 'UserRegistered' ? UserRegisteredSchema : UserUpdatedSchema;
  return rows.map((r) => fromBinary(schema, r.payload));
}

describe('tenant kind in the user events', () => {
  it('when users sign up in their own space and in a district, then UserRegistered says individual or district', async () => {
    const solo = (await signUpByLink(h)).user;
    const district = (await signUpByLink(h, { email: `t.${Date.now()}@demo.checkpoint.school` })).user;
    expect((await eventsOf('UserRegistered', solo.id))[0]).toMatchObject({ userId: solo.id, tenantKind: 'individual' });
    expect((await eventsOf('UserRegistered', district.id))[0]).toMatchObject({ tenantKind: 'district' });
  });

  it('when the service starts on users whose events did not carry the kind, then one UserUpdated each carries it, once', async () => {
    const { rows: users } = await h.db.query<{ id: string }>('select id from users');
    expect(users.length).toBeGreaterThan(3);
    const updatesBefore = await Promise.all(users.map((u) => eventsOf('UserUpdated', u.id)));
    expect(updatesBefore.flat()).toEqual([]);

    // A database from before the field: the backfill has not run.
    await h.db.query('delete from event_backfills');
    const restarted = await h.start();
    for (const { id } of users) {
      const updates = await eventsOf('UserUpdated', id);
      expect(updates).toHaveLength(1);
      expect(['district', 'individual']).toContain(updates[0]!.tenantKind);
    }
    await restarted.stop();

    const again = await h.start();
    for (const { id } of users) expect(await eventsOf('UserUpdated', id)).toHaveLength(1);
    await again.stop();
  });
});
