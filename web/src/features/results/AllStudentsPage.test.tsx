import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch } from '../../test/fetchStub';
import { AllStudentsPage, PAGE_SIZE } from './AllStudentsPage';
import type { StudentSummary, StudentsOverview } from './resultsApi';

const result = (n: number, percentage: number, performanceLevel: 'above' | 'at' | 'below') => ({
  resultId: `r${n}`,
  assessmentId: `a${n}`,
  title: `Quiz ${n}`,
  percentage,
  performanceLevel,
  originalLevel: performanceLevel,
  raisedBy: null,
  raisedAttempt: null,
  submittedAt: '2024-03-06T10:00:00.000Z',
});

const student = (id: string, firstName: string, extra: Partial<StudentSummary> = {}): StudentSummary => ({
  id,
  firstName,
  lastName: 'Doe',
  email: `${firstName.toLowerCase()}@example.com`,
  average: null,
  band: null,
  resultCount: 0,
  classes: [{ id: 'c1', name: 'Biology', period: '4' }],
  results: [],
  ...extra,
});

const ada = student('s1', 'Ada', {
  average: 84.6,
  band: 'above',
  resultCount: 5,
  results: [result(1, 92.4, 'above'), result(2, 81, 'at'), result(3, 79.5, 'below'), result(4, 10, 'below')],
});
const bob = student('s2', 'Bob', { average: 61.2, band: 'at', resultCount: 1, results: [result(5, 61.2, 'below')] });
const cid = student('s3', 'Cid', { average: 59.4, band: 'below', resultCount: 2, results: [] });
const dee = student('s4', 'Dee');

const classes = [
  { id: 'c1', name: 'Biology', period: '4', subject: 'Science' },
  { id: 'c2', name: 'Chemistry', period: null, subject: 'Science' },
];

const overview = (students: StudentSummary[], total = students.length): StudentsOverview => ({
  stats: { totalStudents: 40, aboveStandard: 12, atStandard: 9, belowStandard: 7 },
  total,
  students,
  classes,
});

const all = `GET /api/dashboard/students?limit=${PAGE_SIZE}`;

describe('AllStudentsPage', () => {
  it('when students load, then the stats, averages with their band colour and label, three results and +N more show', async () => {
    stubFetch({ [all]: () => jsonResponse(200, overview([ada, bob, cid, dee])) });
    renderWithProviders(<AllStudentsPage />);
    expect(screen.getByRole('heading', { name: 'All Students' })).toBeInTheDocument();
    expect(await screen.findByTestId('stat-Total Students')).toHaveTextContent('40');
    expect(screen.getByTestId('stat-Above Standard')).toHaveTextContent('12');
    expect(screen.getByTestId('stat-At Standard')).toHaveTextContent('9');
    expect(screen.getByTestId('stat-Below Standard')).toHaveTextContent('7');
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['All Students', 'By Class']);

    const adaCard = screen.getByRole('article', { name: 'Ada Doe' });
    expect(within(adaCard).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(adaCard).getByTestId('student-average')).toHaveTextContent('85%');
    expect(within(adaCard).getByTestId('student-average')).toHaveClass('text-success-emphasis');
    expect(within(adaCard).getByText(/^5 assessments/)).toBeInTheDocument();
    const results = within(within(adaCard).getByRole('list')).getAllByRole('listitem');
    expect(results.map((r) => r.textContent)).toEqual([
      'Quiz 192%Above Standard',
      'Quiz 281%At Standard',
      'Quiz 380%Below Standard',
    ]);
    expect(within(adaCard).queryByText('Quiz 4')).not.toBeInTheDocument();
    expect(within(adaCard).getByText('+2 more')).toBeInTheDocument();

    const bobCard = screen.getByRole('article', { name: 'Bob Doe' });
    expect(within(bobCard).getByTestId('student-average')).toHaveTextContent('61%');
    expect(within(bobCard).getByTestId('student-average')).toHaveClass('text-warning-emphasis');
    // The card's band is the average's (61%: 60-79), worded as such; the one result keeps its level.
    expect(within(bobCard).getByTestId('student-average-band')).toHaveTextContent('At (average 60-79%)');
    expect(within(bobCard).queryByText('At Standard')).not.toBeInTheDocument();
    expect(within(bobCard).getByText('Below Standard')).toBeInTheDocument();
    expect(within(bobCard).queryByText(/more$/)).not.toBeInTheDocument();

    const cidCard = screen.getByRole('article', { name: 'Cid Doe' });
    expect(within(cidCard).getByTestId('student-average')).toHaveTextContent('59%');
    expect(within(cidCard).getByTestId('student-average')).toHaveClass('text-danger-emphasis');
    expect(within(cidCard).getByTestId('student-average-band')).toHaveTextContent('Below (average under 60%)');

    const deeCard = screen.getByRole('article', { name: 'Dee Doe' });
    expect(within(deeCard).getByTestId('student-average')).toHaveTextContent('—');
    expect(within(deeCard).getByText('No results yet')).toBeInTheDocument();
  });

  it('when By Class is chosen and another class picked, then the request carries that classId', async () => {
    const fetchMock = stubFetch({
      [all]: () => jsonResponse(200, overview([ada, bob])),
      [`GET /api/dashboard/students?classId=c1&limit=${PAGE_SIZE}`]: () => jsonResponse(200, overview([ada])),
      [`GET /api/dashboard/students?classId=c2&limit=${PAGE_SIZE}`]: () => jsonResponse(200, overview([bob])),
    });
    const { user } = renderWithProviders(<AllStudentsPage />);
    await user.click(await screen.findByRole('tab', { name: 'By Class' }));
    const panel = screen.getByRole('tabpanel', { name: 'By Class' });
    const select = within(panel).getByLabelText('Class');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Biology - Period 4', 'Chemistry']);
    expect(await within(panel).findByRole('article', { name: 'Ada Doe' })).toBeInTheDocument();
    expect(within(panel).queryByRole('article', { name: 'Bob Doe' })).not.toBeInTheDocument();

    await user.selectOptions(select, 'Chemistry');
    expect(await within(panel).findByRole('article', { name: 'Bob Doe' })).toBeInTheDocument();
    expect(within(panel).queryByRole('article', { name: 'Ada Doe' })).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain(`/api/dashboard/students?classId=c2&limit=${PAGE_SIZE}`);
  });

  it('when there are more students than a page, then Next asks for the next offset', async () => {
    const fetchMock = stubFetch({
      [all]: () => jsonResponse(200, overview([ada], 30)),
      [`GET /api/dashboard/students?limit=${PAGE_SIZE}&offset=${PAGE_SIZE}`]: () =>
        jsonResponse(200, overview([bob], 30)),
    });
    const { user } = renderWithProviders(<AllStudentsPage />);
    expect(await screen.findByText(`Showing 1–${PAGE_SIZE} of 30`)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('article', { name: 'Bob Doe' })).toBeInTheDocument();
    expect(screen.getByText(`Showing ${PAGE_SIZE + 1}–30 of 30`)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain(
      `/api/dashboard/students?limit=${PAGE_SIZE}&offset=${PAGE_SIZE}`,
    );
  });

  it('when a name is searched, then the search is sent and an empty answer says so', async () => {
    stubFetch({
      [all]: () => jsonResponse(200, overview([ada, bob])),
      [`GET /api/dashboard/students?search=zed&limit=${PAGE_SIZE}`]: () => jsonResponse(200, overview([])),
    });
    const { user } = renderWithProviders(<AllStudentsPage />);
    await screen.findByRole('article', { name: 'Ada Doe' });
    await user.type(screen.getByRole('searchbox', { name: 'Search students by name' }), 'zed');
    expect(await screen.findByText('No students match "zed".')).toBeInTheDocument();
    expect(screen.queryByRole('article', { name: 'Ada Doe' })).not.toBeInTheDocument();
    // The stat cards stay those of every student.
    expect(screen.getByTestId('stat-Total Students')).toHaveTextContent('40');
  });

  it('when there are no students, then the empty state shows', async () => {
    stubFetch({
      [all]: () =>
        jsonResponse(200, {
          ...overview([]),
          stats: { totalStudents: 0, aboveStandard: 0, atStandard: 0, belowStandard: 0 },
        }),
    });
    renderWithProviders(<AllStudentsPage />);
    expect(await screen.findByText(/^No students yet/)).toBeInTheDocument();
    expect(screen.getByTestId('stat-Total Students')).toHaveTextContent('0');
  });
});
