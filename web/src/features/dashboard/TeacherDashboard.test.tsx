import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch } from '../../test/fetchStub';
import { TeacherDashboard } from './TeacherDashboard';

const cls = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Biology',
  subject: 'Science',
  period: null,
  joinCode: 'BXR7KP',
  createdAt: '2024-03-05T10:00:00.000Z',
  teacherId: 't1',
  teacherName: 'Ada Lovelace',
  studentCount: 10,
  assessmentCount: 2,
  belowStandard: 1,
  atStandard: 2,
  aboveStandard: 5,
  archived: false,
};

const other = {
  ...cls,
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Chemistry',
  period: '3',
  studentCount: 4,
  atStandard: 1,
  aboveStandard: 1,
  belowStandard: 2,
};

const gridOf = (classId: string, student: string, percentage: number) => ({
  classId,
  className: classId,
  students: [{ id: `s-${student}`, firstName: student, lastName: 'Doe' }],
  assessments: [{ id: `a-${student}`, title: `${student} quiz`, createdAt: '2024-03-05T10:00:00.000Z' }],
  inProgress: [],
  cells: [
    {
      studentId: `s-${student}`,
      assessmentId: `a-${student}`,
      resultId: `r-${student}`,
      percentage,
      performanceLevel: 'above',
    },
  ],
});

describe('TeacherDashboard', () => {
  it('when there is no class, then the welcome card opens the dashboard Create Class modal with 7 subjects', async () => {
    stubFetch({
      'GET /api/classes': () => jsonResponse(200, []),
      'POST /api/classes': () => jsonResponse(500, { message: 'boom' }),
    });
    const { user } = renderWithProviders(<TeacherDashboard />);
    await user.click(await screen.findByRole('button', { name: 'Create Class' }));
    const dialog = await screen.findByRole('dialog');
    const subject = within(dialog).getByLabelText('Subject');
    expect(
      within(subject)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Select a subject', 'Math', 'English', 'Science', 'History', 'Art', 'PE', 'Other']);
    await user.click(within(dialog).getByRole('button', { name: 'Create Class' }));
    expect(await within(dialog).findByText('Class name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Subject is required')).toBeInTheDocument();
    expect(within(dialog).queryByText('Period is required')).not.toBeInTheDocument();

    await user.type(within(dialog).getByLabelText('Class Name'), 'Algebra');
    await user.selectOptions(subject, 'Math');
    await user.click(within(dialog).getByRole('button', { name: 'Create Class' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to create class. Please try again.');
  });

  it("when the Free Trial's class limit refuses the dashboard's new class, then the limit's message shows", async () => {
    const full = 'Free Trial limit reached: up to 3 classes. Upgrade your plan to add more.';
    stubFetch({
      'GET /api/classes': () => jsonResponse(200, []),
      'POST /api/classes': () => jsonResponse(403, { message: full, code: 'plan_limit' }),
    });
    const { user } = renderWithProviders(<TeacherDashboard />);
    await user.click(await screen.findByRole('button', { name: 'Create Class' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Class Name'), 'Algebra');
    await user.selectOptions(within(dialog).getByLabelText('Subject'), 'Math');
    await user.click(within(dialog).getByRole('button', { name: 'Create Class' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(full);
  });

  it('when classes exist, then the summary and progress grid come from the first class', async () => {
    stubFetch({
      'GET /api/classes': () => jsonResponse(200, [cls, other]),
      [`GET /api/classes/${cls.id}/grid`]: () => jsonResponse(200, gridOf(cls.id, 'Bea', 91)),
    });
    renderWithProviders(<TeacherDashboard />);
    expect(screen.getByRole('heading', { name: 'Assessment Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('Track student progress across formative assessments')).toBeInTheDocument();
    expect(await screen.findByTestId('summary-Total Students')).toHaveTextContent('10');
    expect(screen.getByTestId('summary-Students At Standard')).toHaveTextContent('2');
    // 8 students with a result: 5 above (63%), 1 below (13%). Every card a count, its share in the note.
    expect(screen.getByTestId('summary-Above Standard')).toHaveTextContent(/^5$/);
    expect(screen.getByText('63% of 8 assessed')).toBeInTheDocument();
    expect(screen.getByTestId('summary-Need Support')).toHaveTextContent(/^1$/);
    expect(screen.getByText('13% of 8 assessed')).toBeInTheDocument();
    expect(screen.getByText('25% of 8 assessed')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Manage Students' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Assessment' })).toBeInTheDocument();
    expect(screen.getByLabelText('Class')).toHaveValue(cls.id);
    expect(await screen.findByRole('rowheader', { name: 'Bea Doe' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '91%, Above Standard' })).toBeInTheDocument();
  });

  it('when another class is chosen, then the summary and the progress grid switch to that class', async () => {
    const fetchMock = stubFetch({
      'GET /api/classes': () => jsonResponse(200, [cls, other]),
      [`GET /api/classes/${cls.id}/grid`]: () => jsonResponse(200, gridOf(cls.id, 'Bea', 91)),
      [`GET /api/classes/${other.id}/grid`]: () => jsonResponse(200, gridOf(other.id, 'Carl', 55.5)),
    });
    const { user } = renderWithProviders(<TeacherDashboard />);
    const select = await screen.findByLabelText('Class');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Biology', 'Chemistry - Period 3']);
    expect(await screen.findByRole('rowheader', { name: 'Bea Doe' })).toBeInTheDocument();

    await user.selectOptions(select, 'Chemistry - Period 3');
    expect(await screen.findByRole('rowheader', { name: 'Carl Doe' })).toBeInTheDocument();
    expect(screen.queryByRole('rowheader', { name: 'Bea Doe' })).not.toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '56%, Above Standard' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Carl quiz' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Chemistry' })).toBeInTheDocument();
    expect(screen.getByTestId('summary-Total Students')).toHaveTextContent('4');
    // 4 students with a result: 1 above (25%), 2 below (50%).
    expect(screen.getByTestId('summary-Above Standard')).toHaveTextContent(/^1$/);
    // 1 at and 1 above: both notes say 25%.
    expect(screen.getAllByText('25% of 4 assessed')).toHaveLength(2);
    expect(screen.getByTestId('summary-Need Support')).toHaveTextContent(/^2$/);
    expect(screen.getByText('50% of 4 assessed')).toBeInTheDocument();
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => url === `/api/classes/${other.id}/grid`)).toBe(true),
    );
  });
});
