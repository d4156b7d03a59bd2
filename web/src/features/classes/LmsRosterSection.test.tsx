import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch, TEACHER } from '../../test/fetchStub';
import { LmsRosterSection } from './LmsRosterSection';

const linked = {
  classId: 'c1',
  courses: [
    {
      contextId: 'course-1',
      contextTitle: 'Chemistry 9',
      rosterAvailable: true,
      lastSyncedAt: null,
      lastOutcome: null,
    },
  ],
};

describe('LmsRosterSection', () => {
  it('when the class is linked to an LMS course, then the teacher syncs its roster and sees what was added and skipped', async () => {
    let synced = 0;
    stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, TEACHER),
      'GET /api/integrations/lti/classes/c1/roster': () => jsonResponse(200, linked),
      'POST /api/integrations/lti/classes/c1/roster/sync': () => {
        synced++;
        return jsonResponse(200, {
          courses: [
            {
              classId: 'c1',
              contextId: 'course-1',
              contextTitle: 'Chemistry 9',
              syncedAt: '2026-01-01T00:00:00.000Z',
              added: [{ lmsUserId: 'l1', name: 'Lee One', userId: 'u1', accountCreated: true }],
              kept: [],
              skipped: [{ lmsUserId: 'l2', name: 'Lee Two', reason: 'inactive', detail: 'Inactive' }],
            },
          ],
        });
      },
    });
    const { user } = renderWithProviders(<LmsRosterSection classId="c1" />);
    const section = await screen.findByRole('region', { name: 'LMS roster' });
    expect(section).toHaveTextContent('Chemistry 9');
    await user.click(within(section).getByRole('button', { name: 'Sync roster from LMS' }));
    const status = await within(section).findByRole('status');
    expect(status).toHaveTextContent('1 added, 0 already in the class, 1 skipped');
    expect(status).toHaveTextContent('Lee Two: inactive in the LMS');
    expect(synced).toBe(1);
  });

  it('when the LMS offered no roster, then the button is disabled and says why', async () => {
    stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, TEACHER),
      'GET /api/integrations/lti/classes/c1/roster': () =>
        jsonResponse(200, { classId: 'c1', courses: [{ ...linked.courses[0], rosterAvailable: false }] }),
    });
    renderWithProviders(<LmsRosterSection classId="c1" />);
    const section = await screen.findByRole('region', { name: 'LMS roster' });
    expect(within(section).getByRole('button', { name: 'Sync roster from LMS' })).toBeDisabled();
    expect(section).toHaveTextContent('has not offered this course’s roster');
  });

  it('when the class is linked to no LMS course, then nothing is shown', async () => {
    let asked = false;
    stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, TEACHER),
      'GET /api/integrations/lti/classes/c1/roster': () => {
        asked = true;
        return jsonResponse(200, { classId: 'c1', courses: [] });
      },
    });
    renderWithProviders(<LmsRosterSection classId="c1" />);
    await vi.waitFor(() => expect(asked).toBe(true));
    expect(screen.queryByRole('region', { name: 'LMS roster' })).toBeNull();
  });
});
