// A class's owner invites a co-teacher by an address without an account (class's CoTeacherInvited,
// issue 30 item 8) against a real Postgres: identity mails the district's invitation (saying which
// class) when the address is at the district's domains, has no account and the asker is a teacher
// of the district; the account it creates is registered as a teacher of the district. Anything
// else answers CoTeacherInvitationRefused; an invitation still open is not mailed twice.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildHeaders,
  CoTeacherInvitationRefusedSchema,
  CoTeacherInvitedSchema,
  create,
  fromBinary,
  toBinary,
  UserRegisteredSchema,
} from '@checkpoint/events';
import { eventually, startMailCatcher, type MailCatcher } from '@checkpoint/testkit';
import { Browser, startHarness, type Harness } from './helpers.ts';

let h: Harness;
let mail: MailCatcher;
beforeAll(async () => {
  mail = await startMailCatcher();
  h = await startHarness({ SMTP_URL: mail.url });
}, 120_000);
afterAll(async () => {
  await h?.stop();
  await mail?.stop();
}, 60_000);

async function tenant(kind: 'district' | 'individual', name: string) {
  const id = randomUUID();
  const domain = `${name.toLowerCase().replace(/\W+/g, '')}-${id.slice(0, 8)}.example.org`;
  await h.db.query(`insert into tenants (id, name, kind, email_domains) values ($1, $2, $3, $4)`, [
    id,
    name,
    kind,
    kind === 'district' ? [domain] : [],
  ]);
  return { id, domain };
}

async function teacher(t: { id: string; domain: string }, role = 'teacher') {
  const id = randomUUID();
  const email = `t.${id.slice(0, 8)}@${t.domain}`;
  await h.db.query(
    `insert into users (id, tenant_id, email, first_name, last_name, role) values ($1, $2, $3, 'Olive', 'Owner', $4)`,
    [id, t.id, email, role],
  );
  return { id, email };
}

async function invited(tenantId: string, invitedBy: string, email: string, className = 'Chemistry') {
  const invitationId = randomUUID();
  const classId = randomUUID();
  await h.bus.publish([
    {
      topic: 'checkpoint.class.v1',
      key: classId,
      value: toBinary(
        CoTeacherInvitedSchema,
        create(CoTeacherInvitedSchema, { invitationId, classId, tenantId, email, invitedBy, className }),
      ),
      headers: buildHeaders({
        id: randomUUID(),
        type: CoTeacherInvitedSchema.typeName,
        source: 'class',
        time: new Date(),
        tenantId,
      }),
    },
  ]);
  return { invitationId, classId };
}

const refusals = async (classId: string) =>
  (
    await h.db.query<{ payload: Buffer }>(
      `select payload from outbox where type = 'checkpoint.identity.v1.CoTeacherInvitationRefused' and key = $1`,
      [classId],
    )
  ).rows.map((r) => fromBinary(CoTeacherInvitationRefusedSchema, r.payload));

const inviteTokens = async (email: string) =>
  Number(
    (
      await h.db.query<{ n: string }>(
        `select count(*) as n from email_tokens where purpose = 'invite' and email = $1`,
        [email],
      )
    ).rows[0]!.n,
  );

describe('an invitation to co-teach by an address without an account', () => {
  it("mails the district's invitation naming the class; accepting it registers a teacher of the district", async () => {
    const d = await tenant('district', 'Birch District');
    const owner = await teacher(d);
    const address = `newbie.${randomUUID().slice(0, 8)}@${d.domain}`;
    const { classId } = await invited(d.id, owner.id, address.toUpperCase(), 'Chemistry P2');
    const message = await mail.waitFor((m) => m.to.includes(address));
    expect(message.subject).toContain('Birch District');
    expect(message.text).toContain('co-teacher of the class Chemistry P2');
    const token = new URL(mail.links(message).find((l) => l.includes('token='))!).searchParams.get('token')!;

    // Invited again while the first is open: no second mail, no refusal.
    await invited(d.id, owner.id, address);
    await eventually(
      () => h.db.query(`select 1 from inbox where consumer_group = 'identity-classes'`),
      (r) => (r.rowCount ?? 0) >= 2,
    );
    expect(await inviteTokens(address)).toBe(1);
    expect(await refusals(classId)).toEqual([]);

    const accepted = await new Browser(h.identity.url).request('POST', '/api/auth/invitations/accept', {
      token,
      firstName: 'Nia',
      lastName: 'New',
      password: 'correct horse battery',
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
    const registered = await h.db.query<{ payload: Buffer }>(
      `select payload from outbox where type = 'checkpoint.identity.v1.UserRegistered' and key = $1`,
      [accepted.body.user.id],
    );
    expect(fromBinary(UserRegisteredSchema, registered.rows[0]!.payload)).toMatchObject({
      tenantId: d.id,
      email: address,
      role: 'teacher',
    });
  });

  it('refuses, with one answer, an address outside the district, one with an account, an individual tenant, and an asker who is not its teacher', async () => {
    const d = await tenant('district', 'Cedar District');
    const other = await tenant('district', 'Spruce District');
    const owner = await teacher(d);
    const elsewhere = await teacher(other);
    const solo = await tenant('individual', 'Solo');
    const soloOwner = await teacher(solo);
    const student = await teacher(d, 'student');
    const cases = [
      await invited(d.id, owner.id, `someone@${other.domain}`),
      await invited(d.id, owner.id, elsewhere.email),
      await invited(d.id, owner.id, student.email),
      await invited(solo.id, soloOwner.id, `someone@${d.domain}`),
      await invited(d.id, elsewhere.id, `fresh.${randomUUID().slice(0, 8)}@${d.domain}`),
    ];
    for (const c of cases) {
      const answers = await eventually(
        () => refusals(c.classId),
        (r) => r.length > 0,
      );
      expect(answers).toEqual([
        expect.objectContaining({ invitationId: c.invitationId, classId: c.classId, tenantId: expect.any(String) }),
      ]);
    }
    expect(await inviteTokens(`someone@${other.domain}`)).toBe(0);
    expect(await inviteTokens(`someone@${d.domain}`)).toBe(0);
  });
});
