// A student of another district (or school) who joined a class by code is shown to its teacher by
// name only (docs/security.md, finding 10): no screen or export of analytics carries their e-mail, while a
// student of the class's own tenant, and an individual account, keep theirs.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserRegisteredSchema } from '@checkpoint/events';
import { gatewayHeaders } from '@checkpoint/testkit';
import { call, classStory, event, startAnalyticsService, type Harness, type Story } from './helpers.ts';

const OUTSIDER = 'ada@other-district.test';
const INDIVIDUAL = 'ben@individual.test';
const OWN = 'cy@example.test';

let h: Harness;
let story: Story;

beforeAll(async () => {
  h = await startAnalyticsService();
  story = classStory();
  // The story's first two students as accounts outside the class's district: Ada of another
  // district, Ben an individual account; Cy stays in the class's district.
  const [ada, ben] = story.students;
  const outside = (s: typeof ada, email: string, tenantKind: string) => {
    const tenantId = randomUUID();
    return event(
      UserRegisteredSchema,
      { userId: s!.id, tenantId, email, firstName: s!.firstName, lastName: s!.lastName, role: 'student', tenantKind },
      s!.id,
      tenantId,
    );
  };
  const events = story.events.map((e) => {
    if (e.key === ada!.id && e.headers['ce_type'] === UserRegisteredSchema.typeName) {
      return outside(ada, OUTSIDER, 'district');
    }
    if (e.key === ben!.id && e.headers['ce_type'] === UserRegisteredSchema.typeName) {
      return outside(ben, INDIVIDUAL, 'individual');
    }
    return e;
  });
  await h.bus.publish(events);
});
afterAll(() => h?.stop());

async function csv(path: string): Promise<string> {
  const res = await fetch(`${h.url}${path}`, { headers: await gatewayHeaders('analytics', story.teacher) });
  expect(res.status).toBe(200);
  return res.text();
}

describe("a student of another district in a teacher's views", () => {
  it('when the teacher reads results, students and reports, then the other district’s student has no e-mail and the others keep theirs', async () => {
    const paths = [
      `/api/classes/${story.classId}/results`,
      `/api/classes/${story.classId}/grid`,
      `/api/assessments/${story.assessmentId}/results`,
      `/api/assessments/${story.assessmentId}/progress?classId=${story.classId}`,
      '/api/all-results',
      '/api/dashboard/students',
      `/api/dashboard/students?classId=${story.classId}`,
      '/api/reports?timeframe=all&type=detailed',
      '/api/reports?timeframe=all&type=progress',
    ];
    const seen: string[] = [];
    for (const path of paths) {
      const res = await call(h, story.teacher, 'GET', path);
      expect(res.status, path).toBeLessThan(500);
      const text = JSON.stringify(res.body);
      expect(text, path).not.toContain(OUTSIDER);
      seen.push(text);
    }
    const all = seen.join('\n');
    expect(all).toContain('Ada');
    expect(all).toContain(INDIVIDUAL);
    expect(all).toContain(OWN);
  });

  it('when the teacher exports the detailed and progress reports as CSV, then the other district’s student is there by name only', async () => {
    for (const type of ['detailed', 'progress']) {
      const text = await csv(`/api/reports/export?timeframe=all&type=${type}&format=csv`);
      expect(text).toContain('Ada Anders');
      expect(text).not.toContain(OUTSIDER);
      expect(text).toContain(INDIVIDUAL);
      expect(text).toContain(OWN);
    }
  });

  it('when the teacher searches students by the hidden address, then nobody is found', async () => {
    const res = await call(
      h,
      story.teacher,
      'GET',
      `/api/dashboard/students?search=${encodeURIComponent('other-district')}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.students).toEqual([]);
  });
});
