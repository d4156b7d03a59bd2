import { screen, within } from '@testing-library/react';
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

  it('when classes exist, then the summary comes from the first class', async () => {
    stubFetch({ 'GET /api/classes': () => jsonResponse(200, [cls, { ...cls, id: 'other', name: 'Other' }]) });
    renderWithProviders(<TeacherDashboard />);
    expect(await screen.findByTestId('summary-Total Students')).toHaveTextContent('10');
    expect(screen.getByTestId('summary-Students At Standard')).toHaveTextContent('2');
    // 8 results: 5 above (63%), 1 below (13%).
    expect(screen.getByTestId('summary-Above Standard')).toHaveTextContent('63%');
    expect(screen.getByTestId('summary-Need Support')).toHaveTextContent('13%');
    expect(screen.getByRole('button', { name: 'Manage Students' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Assessment' })).toBeInTheDocument();
  });
});
