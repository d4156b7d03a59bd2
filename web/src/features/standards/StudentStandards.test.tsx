import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch } from '../../test/fetchStub';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { StudentStandards } from './StudentStandards';

const trend = (scores: number[]) =>
  scores.map((score, i) => ({
    assessmentId: `7777777${i}-7777-4777-8777-777777777777`,
    title: `Quiz ${i + 1}`,
    submittedAt: `2026-0${i + 1}-01T10:00:00.000Z`,
    score,
  }));

describe('StudentStandards', () => {
  it('when the student has evidence, then each standard shows its level, score, evidence and trend', async () => {
    stubFetch({
      'GET /api/mastery/students/s1': () =>
        jsonResponse(200, [
          {
            identifier: 'a',
            code: '6.RP.A.1',
            level: 'above',
            score: 91,
            evidenceCount: 3,
            trend: trend([60, 80, 100]),
          },
          { identifier: 'b', code: '6.NS.A.1', level: 'below', score: 40, evidenceCount: 1, trend: trend([40]) },
        ]),
    });
    renderWithProviders(<StudentStandards studentId="s1" />);
    const row = await screen.findByRole('row', { name: /6\.RP\.A\.1/ });
    expect(row).toHaveTextContent('Above Standard');
    expect(row).toHaveTextContent('91%3 answers');
    expect(within(row).getByRole('list', { name: 'Trend of 6.RP.A.1' })).toHaveTextContent(
      '60% in Quiz 180% in Quiz 2100% in Quiz 3',
    );
    expect(row).toHaveTextContent('rising');
    expect(screen.getByRole('row', { name: /6\.NS\.A\.1/ })).toHaveTextContent('Below Standard40%1 answer');
  });

  it('when the student has evidence, then their standards can be downloaded as CSV', async () => {
    stubFetch({
      'GET /api/mastery/students/s1': () =>
        jsonResponse(200, [
          { identifier: 'a', code: '6.RP.A.1', level: 'at', score: 85, evidenceCount: 1, trend: trend([85]) },
        ]),
    });
    renderWithProviders(<StudentStandards studentId="s1" title="Ada's standards" />);
    const link = await screen.findByRole('link', { name: 'Export standards CSV' });
    expect(link).toHaveAttribute('href', '/api/mastery/students/s1/export');
    expect(link).toHaveAttribute('download');
    // Several students' cards may be open at once: the link is described by whose standards.
    expect(link).toHaveAccessibleDescription("Ada's standards");
  });

  it('when nothing aligned was assessed, then the empty state shows and there is nothing to download', async () => {
    stubFetch({ 'GET /api/mastery/students/s1': () => jsonResponse(200, []) });
    renderWithProviders(<StudentStandards studentId="s1" />);
    expect(await screen.findByText('No standards assessed yet.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Export standards CSV' })).toBeNull();
  });
});
