import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch } from '../../test/fetchStub';
import type { Report, TeacherResult } from '../results';
import { ReportsPage } from './ReportsPage';

/** A chart's bars as their tooltips say them ('label: value'), left to right. */
const barsOf = (chart: HTMLElement) =>
  within(chart)
    .getAllByTestId('chart-bar')
    .map((bar) => bar.querySelector('title')?.textContent);

const cls = (id: string, name: string, period: string) => ({
  id,
  name,
  subject: 'Math',
  period,
  joinCode: 'ABCDEF',
  createdAt: '2024-03-05T10:00:00.000Z',
  teacherId: 't1',
  teacherName: 'Ada Lovelace',
  studentCount: 3,
  assessmentCount: 1,
  belowStandard: 0,
  atStandard: 0,
  aboveStandard: 0,
  archived: false,
});
const CLASSES = [cls('c1', 'Algebra', '2'), cls('c2', 'Biology', '4')];

const result = (i: number, score: number): TeacherResult => ({
  id: `r${i}`,
  studentId: `s${i}`,
  assessmentId: 'a1',
  classId: 'c1',
  className: 'Algebra',
  score,
  percentage: score,
  earnedPoints: score,
  totalPoints: 100,
  performanceLevel: score >= 90 ? 'above' : score >= 80 ? 'at' : 'below',
  originalLevel: score >= 90 ? 'above' : score >= 80 ? 'at' : 'below',
  raisedBy: null,
  raisedAttempt: null,
  attempt: 1,
  submittedAt: '2024-03-05T10:00:00.000Z',
  student: { firstName: 'Student', lastName: `${i}` },
  assessment: { title: 'Fractions Quiz', topic: 'Fractions', classId: 'c1' },
});

const report = (over: Partial<Report> = {}): Report => ({
  generatedAt: '2024-03-06T10:00:00.000Z',
  timeframe: 'month',
  type: 'performance',
  title: 'Performance Report',
  classes: [{ id: 'c1', name: 'Algebra', period: '2' }],
  levelsOverTime: [
    { period: '2024-02-26', above: 2, at: 1, below: 2 },
    { period: '2024-03-04', above: 3, at: 3, below: 1 },
  ],
  summary: {
    totalResults: 12,
    studentsAssessed: 9,
    assessmentsGiven: 2,
    averageScore: 71.6,
    aboveStandard: 5,
    atStandard: 4,
    belowStandard: 3,
    abovePercent: 42,
    atPercent: 33,
    belowPercent: 25,
  },
  columns: [
    { key: 'assessment', label: 'Assessment' },
    { key: 'average', label: 'Average' },
  ],
  rows: [{ assessment: 'Fractions Quiz', average: 72 }],
  totalRows: 1,
  // Score 65 would be 'At Standard' on the reports' 80/60 bands, but one result shows the server's level (ADR 005).
  recentResults: [result(1, 65), ...Array.from({ length: 9 }, (_, i) => result(i + 2, 85))],
  ...over,
});

const DEFAULT_URL = '/api/reports?timeframe=month&type=performance';

function reportCalls(fetchMock: ReturnType<typeof stubFetch>): string[] {
  return fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith('/api/reports'));
}

describe('ReportsPage', () => {
  it('when the page opens, then the default report shows its summary, levels chart and the first 10 recent results', async () => {
    const fetchMock = stubFetch({
      'GET /api/classes': () => jsonResponse(200, CLASSES),
      [`GET ${DEFAULT_URL}`]: () => jsonResponse(200, report()),
    });
    renderWithProviders(<ReportsPage />);

    expect(await screen.findByRole('heading', { name: 'Performance Report' })).toBeInTheDocument();
    expect(reportCalls(fetchMock)).toEqual([DEFAULT_URL]);
    expect(screen.getByRole('checkbox', { name: 'All Classes' })).toBeChecked();
    expect(await screen.findByRole('checkbox', { name: 'Algebra - Period 2' })).not.toBeChecked();
    expect(screen.getByLabelText('Time Period')).toHaveDisplayValue('Past Month');
    expect(screen.getByLabelText('Report Type')).toHaveDisplayValue('Performance Summary');
    for (const link of ['Dashboard', 'Classes', 'Assessments', 'Students']) {
      expect(screen.getByRole('link', { name: link })).toBeInTheDocument();
    }

    expect(screen.getByTestId('summary-Total Results')).toHaveTextContent('12');
    expect(screen.getByTestId('summary-Average Score')).toHaveTextContent('72%');
    expect(screen.getByTestId('summary-Students Assessed')).toHaveTextContent('9');
    expect(screen.getByTestId('summary-Above Standard')).toHaveTextContent(/^5$/);
    expect(screen.getByTestId('summary-Above Standard').parentElement).toHaveTextContent('42% of results');
    expect(screen.getByTestId('summary-At Standard')).toHaveTextContent(/^4$/);
    expect(screen.getByTestId('summary-At Standard').parentElement).toHaveTextContent('33% of results');
    expect(screen.getByTestId('summary-Below Standard')).toHaveTextContent(/^3$/);
    expect(screen.getByTestId('summary-Below Standard').parentElement).toHaveTextContent('25% of results');

    const chart = screen.getByRole('img', { name: /Results by performance level/ });
    expect(barsOf(chart)).toEqual(['Above Standard: 5 (42%)', 'At Standard: 4 (33%)', 'Below Standard: 3 (25%)']);
    const overTime = screen.getByRole('img', { name: /Levels over time/ });
    expect(barsOf(overTime)).toEqual([
      'Feb 26: 2 Above Standard, 1 At Standard, 2 Below Standard',
      'Mar 4: 3 Above Standard, 3 At Standard, 1 Below Standard',
    ]);
    // Stacked: each period's bar has one segment per level, bottom first, the legend names them.
    const segments = within(overTime).getAllByTestId('chart-bar')[1]!.querySelectorAll('rect');
    expect([...segments].map((rect) => rect.getAttribute('fill'))).toEqual([
      'var(--cp-chart-above)',
      'var(--cp-chart-at)',
      'var(--cp-chart-below)',
    ]);
    expect(within(overTime.closest('figure')!).getByRole('list')).toHaveTextContent(
      'Above StandardAt StandardBelow Standard',
    );
    expect(overTime).toHaveAccessibleName(/Mar 4: 3 Above Standard, 3 At Standard, 1 Below Standard/);

    const table = screen.getByRole('table', { name: 'Performance Report' });
    expect(within(table).getByRole('row', { name: 'Fractions Quiz 72' })).toBeInTheDocument();
    expect(screen.queryByRole('note')).not.toBeInTheDocument();

    const recent = screen.getByRole('region', { name: 'Recent Assessment Results' });
    const rows = within(recent).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(10);
    expect(rows[0]).toHaveTextContent('Student 1');
    expect(rows[0]).toHaveTextContent('65%');
    expect(within(rows[0]!).getByText('Below Standard')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('At Standard')).toBeInTheDocument();
    expect(within(recent).getByRole('button', { name: 'View All Results (12)' })).toBeInTheDocument();
  });

  it('when classes, period and type are chosen and Generate Report is clicked, then the request and the export links carry those filters', async () => {
    const chosenUrl = '/api/reports?classIds=c1%2Cc2&timeframe=quarter&type=detailed';
    const fetchMock = stubFetch({
      'GET /api/classes': () => jsonResponse(200, CLASSES),
      [`GET ${DEFAULT_URL}`]: () => jsonResponse(200, report()),
      [`GET ${chosenUrl}`]: () =>
        jsonResponse(200, report({ title: 'Detailed Report', type: 'detailed', timeframe: 'quarter' })),
    });
    const { user } = renderWithProviders(<ReportsPage />);
    await screen.findByRole('heading', { name: 'Performance Report' });

    await user.click(await screen.findByRole('checkbox', { name: 'Algebra - Period 2' }));
    await user.click(screen.getByRole('checkbox', { name: 'Biology - Period 4' }));
    expect(screen.getByRole('checkbox', { name: 'All Classes' })).not.toBeChecked();
    await user.selectOptions(screen.getByLabelText('Time Period'), 'Past Quarter');
    await user.selectOptions(screen.getByLabelText('Report Type'), 'Detailed Results');
    // Until generated, the exports still belong to the report on screen.
    expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute(
      'href',
      '/api/reports/export?timeframe=month&type=performance&format=csv',
    );

    await user.click(screen.getByRole('button', { name: 'Generate Report' }));
    expect(await screen.findByRole('heading', { name: 'Detailed Report' })).toBeInTheDocument();
    expect(reportCalls(fetchMock)).toEqual([DEFAULT_URL, chosenUrl]);

    const csv = screen.getByRole('link', { name: 'Download CSV' });
    const pdf = screen.getByRole('link', { name: 'Download PDF' });
    expect(csv).toHaveAttribute(
      'href',
      '/api/reports/export?timeframe=quarter&type=detailed&classIds=c1%2Cc2&format=csv',
    );
    expect(pdf).toHaveAttribute(
      'href',
      '/api/reports/export?timeframe=quarter&type=detailed&classIds=c1%2Cc2&format=pdf',
    );
    expect(csv).toHaveAttribute('download');
    expect(pdf).toHaveAttribute('download');
  });

  it('when two classes are chosen, then the report follows both in one live stream; all classes are not followed', async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'EventSource',
      class {
        constructor(url: string) {
          urls.push(url);
        }
        addEventListener() {}
        close() {}
      },
    );
    const chosenUrl = '/api/reports?classIds=c1%2Cc2&timeframe=month&type=performance';
    stubFetch({
      'GET /api/classes': () => jsonResponse(200, CLASSES),
      [`GET ${DEFAULT_URL}`]: () => jsonResponse(200, report()),
      [`GET ${chosenUrl}`]: () => jsonResponse(200, report({ title: 'Two Classes' })),
    });
    const { user } = renderWithProviders(<ReportsPage />);
    await screen.findByRole('heading', { name: 'Performance Report' });
    expect(urls).toEqual([]);
    await user.click(await screen.findByRole('checkbox', { name: 'Algebra - Period 2' }));
    await user.click(screen.getByRole('checkbox', { name: 'Biology - Period 4' }));
    await user.click(screen.getByRole('button', { name: 'Generate Report' }));
    expect(await screen.findByRole('heading', { name: 'Two Classes' })).toBeInTheDocument();
    expect(urls).toEqual(['/api/dashboard/live?classId=c1,c2']);
  });

  it('when the server sends only part of a long report, then the page says how many rows are missing', async () => {
    stubFetch({
      'GET /api/classes': () => jsonResponse(200, CLASSES),
      [`GET ${DEFAULT_URL}`]: () => jsonResponse(200, report({ totalRows: 1500 })),
    });
    renderWithProviders(<ReportsPage />);
    expect(await screen.findByRole('note')).toHaveTextContent(
      'Showing the first 1 of 1500 rows. Download the CSV or PDF for all of them.',
    );
  });

  it('when Generate Report is clicked with unchanged filters, then a fresh report is fetched', async () => {
    const fetchMock = stubFetch({
      'GET /api/classes': () => jsonResponse(200, CLASSES),
      [`GET ${DEFAULT_URL}`]: () => jsonResponse(200, report()),
    });
    const { user } = renderWithProviders(<ReportsPage />);
    await screen.findByRole('heading', { name: 'Performance Report' });
    await user.click(screen.getByRole('button', { name: 'Generate Report' }));
    await waitFor(() => expect(reportCalls(fetchMock)).toEqual([DEFAULT_URL, DEFAULT_URL]));
  });

  it('when All Classes is unchecked and no class is chosen, then Generate Report is disabled', async () => {
    stubFetch({
      'GET /api/classes': () => jsonResponse(200, CLASSES),
      [`GET ${DEFAULT_URL}`]: () => jsonResponse(200, report()),
    });
    const { user } = renderWithProviders(<ReportsPage />);
    await screen.findByRole('heading', { name: 'Performance Report' });
    await user.click(screen.getByRole('checkbox', { name: 'All Classes' }));
    expect(screen.getByRole('button', { name: 'Generate Report' })).toBeDisabled();
    expect(screen.getByRole('alert')).toHaveTextContent('Choose All Classes or at least one class.');
  });

  it('when View All Results (N) is clicked, then every result of the same filters is listed from the detailed report', async () => {
    const detailedRows = Array.from({ length: 12 }, (_, i) => ({ student: `Student ${i + 1}`, score: 80 }));
    const fetchMock = stubFetch({
      'GET /api/classes': () => jsonResponse(200, CLASSES),
      [`GET ${DEFAULT_URL}`]: () => jsonResponse(200, report()),
      'GET /api/reports?timeframe=month&type=detailed': () =>
        jsonResponse(
          200,
          report({
            type: 'detailed',
            columns: [
              { key: 'student', label: 'Student' },
              { key: 'score', label: 'Score' },
            ],
            rows: detailedRows,
            totalRows: 12,
          }),
        ),
    });
    const { user } = renderWithProviders(<ReportsPage />);
    await user.click(await screen.findByRole('button', { name: 'View All Results (12)' }));

    const all = await screen.findByRole('region', { name: 'All Assessment Results (12)' });
    const table = await within(all).findByRole('table', { name: 'All assessment results' });
    expect(within(table).getAllByRole('row').slice(1)).toHaveLength(12);
    expect(within(table).getByText('Student 12')).toBeInTheDocument();
    expect(reportCalls(fetchMock)).toContain('/api/reports?timeframe=month&type=detailed');

    await user.click(within(all).getByRole('button', { name: 'Show Recent Only' }));
    expect(screen.getByRole('region', { name: 'Recent Assessment Results' })).toBeInTheDocument();
  });
});
