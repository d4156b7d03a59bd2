// Scores to the LMS (AGS, docs/adr/014-lti.md) on real Postgres: the result that counts queued in
// the inbox transaction of its event for the student's linked line item, posted to
// {lineitem}/scores with a client-credentials token (the tool's signed assertion checked against
// its JWKS), a newer score replacing an unsent older one, exponential backoff up to a bound, a
// teacher's resend after a failure, the order of posts, and an address the egress rules refuse.
// The same against the real platform package: e2e/api/lti-ags.contract.test.ts.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DescMessage, MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import {
  AssessmentCreatedSchema,
  buildHeaders,
  ClassCreatedSchema,
  create,
  ResultRegradedSchema,
  ResultSubmittedSchema,
  ResultWithdrawnSchema,
  toBinary,
  topicFor,
  UserDeletedSchema,
} from '@checkpoint/events';
import { eventually } from '@checkpoint/testkit';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SCORE_SCOPE } from '../src/data-access/scores.repository.ts';
import { readAgsClaim, scoresUrl } from '../src/domain/scores.use-case.ts';
import { actor, call, platformRegistration, startIntegrationsService, type Harness } from './helpers.ts';

let h: Harness;

/** A platform's token URL and score service: answers `status` (200 unless a test says otherwise). */
interface Post {
  path: string;
  contentType: string | undefined;
  authorization: string | undefined;
  body: Record<string, unknown>;
}
const platform = {
  status: 200,
  posts: [] as Post[],
  tokens: [] as string[],
  url: '',
  server: undefined as http.Server | undefined,
};

beforeAll(async () => {
  h = await startIntegrationsService({
    LTI_SCORE_BACKOFF_MS: '100',
    LTI_SCORE_MAX_BACKOFF_MS: '400',
    LTI_SCORE_MAX_ATTEMPTS: '3',
    LTI_SCORE_POLL_MS: '50',
    LTI_SCORE_TIMEOUT_MS: '2000',
  });
  const jwks = (await call(h, undefined, 'GET', '/api/lti/jwks')).body as Parameters<typeof createLocalJWKSet>[0];
  platform.server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      void (async () => {
        if (req.url === '/token') {
          const form = new URLSearchParams(raw);
          // The tool's assertion, verified with the tool's published keys (RFC 7523).
          const { payload } = await jwtVerify(form.get('client_assertion') ?? '', createLocalJWKSet(jwks), {
            audience: `${platform.url}/token`,
          });
          platform.tokens.push(`${String(payload.iss)} ${form.get('scope') ?? ''} ${form.get('grant_type') ?? ''}`);
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ access_token: 'platform-token', token_type: 'bearer', expires_in: 3600 }));
        }
        if (platform.status !== 200) {
          res.writeHead(platform.status);
          return res.end('down');
        }
        platform.posts.push({
          path: req.url ?? '',
          contentType: req.headers['content-type'],
          authorization: req.headers.authorization,
          body: JSON.parse(raw) as Record<string, unknown>,
        });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      })().catch((err: unknown) => {
        res.writeHead(401);
        res.end(String(err));
      });
    });
  });
  await new Promise<void>((r) => platform.server!.listen(0, '127.0.0.1', r));
  platform.url = `http://127.0.0.1:${(platform.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await h?.stop();
  await new Promise((r) => platform.server?.close(r));
});
beforeEach(() => {
  platform.status = 200;
  platform.posts.length = 0;
});

async function publish<D extends DescMessage>(schema: D, init: MessageInitShape<D>, key: string, tenant: string) {
  await h.bus.publish([
    {
      topic: topicFor(schema),
      key,
      value: toBinary(schema, create(schema, init)),
      headers: buildHeaders({
        id: randomUUID(),
        type: schema.typeName,
        source: 'test',
        time: new Date(),
        tenantId: tenant,
      }),
    },
  ]);
}

/** A district with a registration of the platform, a class with its teacher and an assessment. */
async function course(lineitemUrl?: string) {
  const tenant = randomUUID();
  const teacher = actor('teacher', tenant);
  const reg = (
    await call(
      h,
      actor('admin', tenant),
      'POST',
      '/api/integrations/lti/registrations',
      platformRegistration({ tokenUrl: `${platform.url}/token` }),
    )
  ).body as { id: string; clientId: string };
  const classId = randomUUID();
  const assessmentId = randomUUID();
  await publish(
    ClassCreatedSchema,
    { classId, tenantId: tenant, teacherId: teacher.userId, name: 'Grade 7', subject: 'Maths' },
    classId,
    tenant,
  );
  await publish(
    AssessmentCreatedSchema,
    { assessmentId, tenantId: tenant, classId, teacherId: teacher.userId, title: 'Fractions', isActive: true },
    classId,
    tenant,
  );
  const lineitem = lineitemUrl ?? `${platform.url}/lineitems/${assessmentId.slice(0, 8)}/lineitem?type=quiz`;
  /** A student's launch of the link (as lti.use-case does on a launch with the AGS claim). */
  const link = async (lmsUserId: string) => {
    const userId = randomUUID();
    await h.sql.query(
      `insert into lti_ags_links (registration_id, resource_link_id, user_id, tenant_id, deployment_id, assessment_id,
                                  lineitem_url, lineitems_url, scopes, lms_user_id)
       values ($1, 'link-1', $2, $3, 'deployment-1', $4, $5, null, $6, $7)`,
      [reg.id, userId, tenant, assessmentId, lineitem, [SCORE_SCOPE], lmsUserId],
    );
    return userId;
  };
  const submit = async (studentId: string, earned: number, at: Date, extra: { pending?: boolean } = {}) => {
    const resultId = randomUUID();
    await publish(
      ResultSubmittedSchema,
      {
        resultId,
        assessmentId,
        tenantId: tenant,
        classId,
        studentId,
        earnedPoints: earned,
        totalPoints: 10,
        percentage: earned * 10,
        level: 'at',
        answers: [{ questionId: randomUUID(), answer: 'x', pending: extra.pending ?? false }],
        submittedAt: timestampFromDate(at),
        attempt: 1,
        counted: true,
      },
      classId,
      tenant,
    );
    return resultId;
  };
  const queue = async () =>
    (
      await h.sql.query<{
        status: string;
        attempts: number;
        score_given: number | null;
        last_error: string | null;
        next_attempt_at: Date;
        updated_at: Date;
        user_id: string;
      }>(`select * from lti_score_queue where tenant_id = $1 order by created_at`, [tenant])
    ).rows;
  return { tenant, teacher, reg, classId, assessmentId, lineitem, link, submit, queue };
}

describe('the AGS claim of a launch', () => {
  it('reads the line item, scopes and the assessment of the custom claim; none without a line item or assessment', () => {
    const id = randomUUID();
    const claims = {
      'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint': {
        lineitem: 'https://lms.example.org/lineitems/1/lineitem',
        lineitems: 'https://lms.example.org/lineitems',
        scope: [SCORE_SCOPE, 7],
      },
      'https://purl.imsglobal.org/spec/lti/claim/custom': { checkpoint_assessment_id: id },
    };
    expect(readAgsClaim(claims, id)).toEqual({
      lineitemUrl: 'https://lms.example.org/lineitems/1/lineitem',
      lineitemsUrl: 'https://lms.example.org/lineitems',
      scopes: [SCORE_SCOPE],
      assessmentId: id,
    });
    expect(readAgsClaim(claims, undefined)).toBeUndefined();
    expect(readAgsClaim(claims, 'not-an-id')).toBeUndefined();
    expect(
      readAgsClaim({ ...claims, 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint': { scope: [] } }, id),
    ).toBeUndefined();
  });

  it('posts to the line item’s path + /scores, keeping its query', () => {
    expect(scoresUrl('https://lms.example.org/api/lineitems/7/lineitem?type_id=1')).toBe(
      'https://lms.example.org/api/lineitems/7/lineitem/scores?type_id=1',
    );
  });
});

describe('scores to the LMS', () => {
  it('when a linked student submits, then the score is queued and posted with the platform’s token', async () => {
    const c = await course();
    const student = await c.link('lms-student-1');
    const at = new Date('2026-11-30T10:00:00.000Z');
    await c.submit(student, 7, at, { pending: true });
    // Queued in the transaction of the event (the worker may already have sent it).
    expect((await c.queue()).length).toBe(1);
    const posts = await eventually(
      async () => platform.posts,
      (p) => p.length > 0,
    );
    expect(posts).toHaveLength(1);
    expect(posts[0]!.path).toBe(new URL(scoresUrl(c.lineitem)).pathname + '?type=quiz');
    expect(posts[0]!.contentType).toBe('application/vnd.ims.lis.v1.score+json');
    expect(posts[0]!.authorization).toBe('Bearer platform-token');
    expect(posts[0]!.body).toEqual({
      userId: 'lms-student-1',
      scoreGiven: 7,
      scoreMaximum: 10,
      activityProgress: 'Completed',
      gradingProgress: 'PendingManual',
      timestamp: at.toISOString(),
    });
    expect(platform.tokens.some((t) => t === `${c.reg.clientId} ${SCORE_SCOPE} client_credentials`)).toBe(true);
    const rows = await eventually(c.queue, (r) => r[0]?.status === 'sent');
    expect(rows[0]).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('a student without a link gets nothing queued; a result that does not count neither', async () => {
    const c = await course();
    await c.submit(randomUUID(), 5, new Date());
    const linked = await c.link('lms-student-2');
    await publish(
      ResultSubmittedSchema,
      {
        resultId: randomUUID(),
        assessmentId: c.assessmentId,
        tenantId: c.tenant,
        classId: c.classId,
        studentId: linked,
        earnedPoints: 1,
        totalPoints: 10,
        level: 'below',
        attempt: 2,
        counted: false,
      },
      c.classId,
      c.tenant,
    );
    expect(await c.queue()).toHaveLength(0);
  });

  it('when the platform is down, then the score is retried with growing pauses up to the bound, and fails with the reason', async () => {
    platform.status = 503;
    const c = await course();
    const student = await c.link('lms-student-3');
    await c.submit(student, 4, new Date());
    const pauses: number[] = [];
    const rows = await eventually(
      async () => {
        const r = (await c.queue())[0];
        if (r && r.status === 'pending' && r.attempts > pauses.length)
          pauses.push(r.next_attempt_at.getTime() - r.updated_at.getTime());
        return r;
      },
      (r) => r?.status === 'failed',
    );
    expect(rows).toMatchObject({ status: 'failed', attempts: 3 });
    expect(rows!.last_error).toMatch(/503/);
    // 100 ms after the first failure, then 200 ms (doubled), then given up (3 attempts).
    expect(pauses.length).toBeGreaterThanOrEqual(1);
    expect(pauses[0]!).toBeGreaterThanOrEqual(80);
    if (pauses.length > 1) expect(pauses[1]!).toBeGreaterThan(pauses[0]!);
    expect(platform.posts).toHaveLength(0);

    // The teacher sees why, and resends once the platform is back.
    const status = await call(h, c.teacher, 'GET', `/api/integrations/lti/assessments/${c.assessmentId}/scores`);
    expect(status.status).toBe(200);
    expect(status.body.scores[0]).toMatchObject({ status: 'failed', attempts: 3, lmsUserId: 'lms-student-3' });
    expect(status.body.scores[0].lastError).toMatch(/503/);
    const failures = await call(h, actor('admin', c.tenant), 'GET', '/api/integrations/lti/score-failures');
    expect(failures.body.scores.map((s: { id: string }) => s.id)).toContain(status.body.scores[0].id);
    expect((await call(h, actor('admin'), 'GET', '/api/integrations/lti/score-failures')).body.scores).toHaveLength(0);
    platform.status = 200;
    const resent = await call(
      h,
      c.teacher,
      'POST',
      `/api/integrations/lti/assessments/${c.assessmentId}/scores/resend`,
      {},
    );
    expect(resent.body).toEqual({ resent: 1 });
    await eventually(
      async () => platform.posts,
      (p) => p.length > 0,
    );
    expect(platform.posts[0]!.body).toMatchObject({ userId: 'lms-student-3', scoreGiven: 4 });
    expect((await eventually(c.queue, (r) => r[0]?.status === 'sent'))[0]!.status).toBe('sent');
  });

  it('a newer score of the student replaces the unsent one; an older one never replaces a newer', async () => {
    platform.status = 503;
    const c = await course();
    const student = await c.link('lms-student-4');
    const resultId = await c.submit(student, 3, new Date('2026-11-30T10:00:00Z'), { pending: true });
    await eventually(c.queue, (r) => (r[0]?.attempts ?? 0) >= 1);
    // The teacher reviews the short answer: the regrade supersedes the score not yet sent.
    await publish(
      ResultRegradedSchema,
      {
        resultId,
        assessmentId: c.assessmentId,
        tenantId: c.tenant,
        classId: c.classId,
        studentId: student,
        earnedPoints: 8,
        totalPoints: 10,
        percentage: 80,
        level: 'above',
        scoreLevel: 'above',
        pendingCount: 0,
        occurredAt: timestampFromDate(new Date('2026-11-30T11:00:00Z')),
      },
      c.classId,
      c.tenant,
    );
    let rows = await c.queue();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ score_given: 8, status: 'pending' });
    expect(rows[0]!.attempts).toBeLessThanOrEqual(1);
    // A late event of an older time changes nothing.
    await publish(
      ResultRegradedSchema,
      {
        resultId,
        assessmentId: c.assessmentId,
        tenantId: c.tenant,
        classId: c.classId,
        studentId: student,
        earnedPoints: 5,
        totalPoints: 10,
        pendingCount: 0,
        occurredAt: timestampFromDate(new Date('2026-11-30T10:30:00Z')),
      },
      c.classId,
      c.tenant,
    );
    rows = await c.queue();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.score_given).toBe(8);
    platform.status = 200;
    await eventually(c.queue, (r) => r[0]?.status === 'sent');
    expect(platform.posts.map((p) => p.body.scoreGiven)).toEqual([8]);
    expect(platform.posts[0]!.body.gradingProgress).toBe('FullyGraded');

    // Reopened by the teacher: the line item is told the activity is in progress, without a score.
    await publish(
      ResultWithdrawnSchema,
      { resultId, assessmentId: c.assessmentId, tenantId: c.tenant, classId: c.classId, studentId: student },
      c.classId,
      c.tenant,
    );
    await eventually(
      async () => platform.posts,
      (p) => p.length > 1,
    );
    expect(platform.posts[1]!.body).toMatchObject({ activityProgress: 'InProgress', gradingProgress: 'NotReady' });
    expect(platform.posts[1]!.body).not.toHaveProperty('scoreGiven');
    // One sent row kept per student and line item.
    expect((await eventually(c.queue, (r) => r.length === 1 && r[0]!.status === 'sent')).length).toBe(1);
  });

  it('scores go in the order they were made', async () => {
    platform.status = 503;
    const c = await course();
    const students = [await c.link('lms-a'), await c.link('lms-b'), await c.link('lms-c')];
    for (const [i, s] of students.entries()) await c.submit(s, i + 1, new Date(Date.now() + i));
    await eventually(c.queue, (r) => r.length === 3 && r.every((q) => q.status === 'failed'));
    platform.status = 200;
    // All three due at the same moment: posted oldest first.
    const resent = await call(
      h,
      c.teacher,
      'POST',
      `/api/integrations/lti/assessments/${c.assessmentId}/scores/resend`,
      {},
    );
    expect(resent.body).toEqual({ resent: 3 });
    await eventually(
      async () => platform.posts,
      (p) => p.length >= 3,
    );
    expect(platform.posts.map((p) => p.body.userId)).toEqual(['lms-a', 'lms-b', 'lms-c']);
  });

  it('replicas posting at once never post a score twice (rows claimed with skip locked)', async () => {
    platform.status = 503;
    const c = await course();
    const names = Array.from({ length: 8 }, (_, i) => `lms-r${i}`);
    const students = [];
    for (const n of names) students.push(await c.link(n));
    for (const [i, st] of students.entries()) await c.submit(st, i % 10, new Date());
    await eventually(c.queue, (r) => r.length === 8 && r.every((q) => q.status === 'failed'));
    platform.status = 200;
    const { scoreUseCases } = await import('../src/domain/scores.use-case.ts');
    const { createPlatformTokens } = await import('../src/domain/platform-token.ts');
    const { toolKeyRing } = await import('../src/domain/tool-keys.ts');
    const { toolKeysRepository } = await import('../src/data-access/tool-keys.repository.ts');
    const ring = toolKeyRing(toolKeysRepository(h.sql));
    const replica = () =>
      scoreUseCases(
        h.sql,
        createPlatformTokens({ signingKey: () => ring.signingKey(), allowLoopback: true, timeoutMs: 2000 }),
        { allowLoopback: true, timeoutMs: 2000, maxAttempts: 3, backoffMs: 100, maxBackoffMs: 400 },
      );
    const [one, two] = [replica(), replica()];
    await h.sql.query(
      `update lti_score_queue set status = 'pending', attempts = 0, next_attempt_at = now() where tenant_id = $1`,
      [c.tenant],
    );
    // Two more replicas beside the service's own worker.
    await Promise.all([one.sendDue(), two.sendDue()]);
    await eventually(c.queue, (r) => r.every((q) => q.status === 'sent'));
    const mine = platform.posts.filter((p) => names.includes(String(p.body.userId)));
    expect(mine.map((p) => p.body.userId).sort()).toEqual([...names].sort());
  });

  it('a line item at an address the egress rules refuse is never called: failed at once, saying why', async () => {
    const c = await course('http://10.1.2.3/lineitems/1/lineitem');
    const student = await c.link('lms-student-5');
    await c.submit(student, 6, new Date());
    const rows = await eventually(c.queue, (r) => r[0]?.status === 'failed');
    expect(rows[0]!.status).toBe('failed');
    expect(rows[0]!.last_error).toMatch(/egress/);
    expect(rows[0]!.attempts).toBe(1);
    expect(platform.posts).toHaveLength(0);
  });

  it('a launch after the result counts queues it at once', async () => {
    const c = await course();
    const student = randomUUID();
    await c.submit(student, 9, new Date());
    expect(await c.queue()).toHaveLength(0);
    const { scoreUseCases } = await import('../src/domain/scores.use-case.ts');
    const { createPlatformTokens } = await import('../src/domain/platform-token.ts');
    const uc = scoreUseCases(
      h.sql,
      createPlatformTokens({
        signingKey: () => Promise.reject(new Error('unused')),
        allowLoopback: true,
        timeoutMs: 1000,
      }),
      { allowLoopback: true, timeoutMs: 1000, maxAttempts: 1, backoffMs: 100, maxBackoffMs: 100 },
    );
    await uc.linkLaunch(
      {
        registrationId: c.reg.id,
        resourceLinkId: 'link-9',
        userId: student,
        tenantId: c.tenant,
        deploymentId: 'deployment-1',
        lmsUserId: 'lms-late',
      },
      { lineitemUrl: c.lineitem, lineitemsUrl: null, scopes: [SCORE_SCOPE], assessmentId: c.assessmentId },
    );
    await eventually(
      async () => platform.posts,
      (p) => p.length > 0,
    );
    expect(platform.posts[0]!.body).toMatchObject({ userId: 'lms-late', scoreGiven: 9 });
  });

  it('only a teacher of the class sees and resends the scores', async () => {
    const c = await course();
    for (const who of [actor('teacher', c.tenant), actor('teacher')]) {
      expect((await call(h, who, 'GET', `/api/integrations/lti/assessments/${c.assessmentId}/scores`)).status).toBe(
        404,
      );
      expect(
        (await call(h, who, 'POST', `/api/integrations/lti/assessments/${c.assessmentId}/scores/resend`, {})).status,
      ).toBe(404);
    }
    expect((await call(h, c.teacher, 'GET', `/api/integrations/lti/assessments/not-an-id/scores`)).status).toBe(404);
    expect(
      (await call(h, c.teacher, 'GET', `/api/integrations/lti/assessments/${c.assessmentId}/scores`)).body,
    ).toEqual({
      scores: [],
    });
    expect(
      (await call(h, actor('student', c.tenant), 'GET', `/api/integrations/lti/assessments/${c.assessmentId}/scores`))
        .status,
    ).toBe(403);
  });

  it('a class this service has no event of: its teacher is known by their instructor launch into it', async () => {
    const tenant = randomUUID();
    const teacher = actor('teacher', tenant);
    const reg = (
      await call(h, actor('admin', tenant), 'POST', '/api/integrations/lti/registrations', platformRegistration())
    ).body as { id: string };
    const classId = randomUUID();
    const assessmentId = randomUUID();
    await publish(
      AssessmentCreatedSchema,
      { assessmentId, tenantId: tenant, classId, teacherId: teacher.userId, title: 'Old class', isActive: true },
      classId,
      tenant,
    );
    const path = `/api/integrations/lti/assessments/${assessmentId}/scores`;
    expect((await call(h, teacher, 'GET', path)).status).toBe(404);
    await h.sql.query(
      `insert into lti_launches (id, tenant_id, registration_id, deployment_id, lms_user_id, roles, resource_link_id,
                                 target_link_uri, user_id, class_id)
       values ($1, $2, $3, 'deployment-1', 'lms-teacher', '{Instructor}', 'link-1', 'https://checkpoint.test/', $4, $5)`,
      [randomUUID(), tenant, reg.id, teacher.userId, classId],
    );
    expect((await call(h, teacher, 'GET', path)).status).toBe(200);
    expect((await call(h, actor('teacher', tenant), 'GET', path)).status).toBe(404);
    // Once the class's events are known, they decide.
    await publish(
      ClassCreatedSchema,
      { classId, tenantId: tenant, teacherId: randomUUID(), name: 'Old', subject: 'Maths' },
      classId,
      tenant,
    );
    expect((await call(h, teacher, 'GET', path)).status).toBe(404);
  });

  it('a student’s erasure takes their links, counted results and scores', async () => {
    const c = await course();
    const student = await c.link('lms-student-6');
    await c.submit(student, 2, new Date());
    await eventually(c.queue, (r) => r[0]?.status === 'sent');
    await publish(
      UserDeletedSchema,
      { userId: student, tenantId: c.tenant, requestId: randomUUID() },
      student,
      c.tenant,
    );
    for (const table of ['lti_ags_links', 'lti_counted_results', 'lti_score_queue'])
      expect((await h.sql.query(`select 1 from ${table} where user_id = $1`, [student])).rowCount, table).toBe(0);
    expect((await h.sql.query('select 1 from lti_registrations where id = $1', [c.reg.id])).rowCount).toBe(1);
  });
});
