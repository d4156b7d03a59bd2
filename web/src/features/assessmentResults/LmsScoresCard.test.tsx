import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch } from '../../test/fetchStub';
import { LmsScoresCard } from './LmsScoresCard';

const score = (over: Record<string, unknown>) => ({
  id: 's1',
  userId: 'st1',
  lmsUserId: 'lms-1',
  assessmentId: 'a1',
  lineitemUrl: 'https://lms.example.org/lineitems/1/lineitem',
  status: 'sent',
  scoreGiven: 7,
  scoreMaximum: 10,
  gradingProgress: 'FullyGraded',
  scoreTimestamp: '2026-11-30T10:00:00.000Z',
  attempts: 1,
  nextAttemptAt: null,
  lastError: null,
  sentAt: '2026-11-30T10:00:01.000Z',
  ...over,
});

describe('LmsScoresCard', () => {
  it('shows what was sent, what waits or failed and why, and resends', async () => {
    const resend = vi.fn(() => jsonResponse(200, { resent: 1 }));
    stubFetch({
      'GET /api/integrations/lti/assessments/a1/scores': () =>
        jsonResponse(200, {
          scores: [
            score({}),
            score({
              id: 's2',
              userId: 'st2',
              lmsUserId: 'lms-2',
              status: 'failed',
              attempts: 10,
              lastError: "The platform's score service: it answered 503",
              sentAt: null,
            }),
          ],
        }),
      'POST /api/integrations/lti/assessments/a1/scores/resend': resend,
    });
    const { user } = renderWithProviders(<LmsScoresCard assessmentId="a1" names={{ st2: 'Bob Brown' }} />);
    const card = await screen.findByRole('region', { name: 'LMS Gradebook' });
    expect(screen.getByTestId('lms-scores-summary')).toHaveTextContent('1 sent · 0 waiting · 1 failed');
    const unsent = screen.getByTestId('lms-score-unsent');
    expect(unsent).toHaveTextContent('Bob Brown: failed after 10 attempts');
    expect(unsent).toHaveTextContent('it answered 503');
    expect(card).not.toHaveTextContent('lms-1');
    await user.click(screen.getByRole('button', { name: 'Resend now' }));
    await vi.waitFor(() => expect(resend).toHaveBeenCalledTimes(1));
    expect(await screen.findByRole('status')).toHaveTextContent('1 score will be sent now.');
  });

  it('shows nothing when no student came from an LMS (or the scores cannot be read)', async () => {
    const fetch = stubFetch({});
    const { container } = renderWithProviders(<LmsScoresCard assessmentId="a1" names={{}} />);
    await vi.waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(container).toBeEmptyDOMElement();
  });
});
