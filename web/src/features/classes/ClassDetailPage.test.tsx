import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch } from '../../test/fetchStub';
import type { TeacherResult } from '../results';
import { ClassDetailPage } from './ClassDetailPage';
import type { ClassItem } from './classesApi';

const cls: ClassItem = {
  id: 'c1',
  name: 'Biology',
  subject: 'Science',
  period: '4',
  joinCode: 'BXR7KP',
  createdAt: '2024-03-05T10:00:00.000Z',
  teacherId: 't1',
  teacherName: 'Ada Lovelace',
  studentCount: 3,
  assessmentCount: 1,
  belowStandard: 2,
  atStandard: 0,
  aboveStandard: 1,
  archived: false,
  coTeaching: false,
};

const result = (
  id: string,
  performanceLevel: TeacherResult['performanceLevel'],
  percentage: number,
): TeacherResult => ({
  id,
  studentId: `s-${id}`,
  assessmentId: 'a1',
  classId: 'c1',
  className: 'Biology',
  score: percentage,
  percentage,
  earnedPoints: percentage,
  totalPoints: 100,
  performanceLevel,
  originalLevel: performanceLevel,
  raisedBy: null,
  raisedAttempt: null,
  attempt: 1,
  submittedAt: '2024-03-06T10:00:00.000Z',
  student: { firstName: 'S', lastName: id },
  assessment: { title: 'Cells', topic: 'Cells', classId: 'c1' },
});

const grid = {
  classId: 'c1',
  className: 'Biology',
  students: [{ id: 's-r1', firstName: 'Ada', lastName: 'Byron' }],
  assessments: [{ id: 'a1', title: 'Cells', createdAt: '2024-03-05T10:00:00.000Z' }],
  inProgress: [],
  cells: [{ studentId: 's-r1', assessmentId: 'a1', resultId: 'r1', percentage: 95, performanceLevel: 'above' }],
};

function renderPage() {
  return renderWithProviders(
    <Routes>
      <Route path="/class/:id" element={<ClassDetailPage />} />
    </Routes>,
    { route: '/class/c1' },
  );
}

describe('ClassDetailPage', () => {
  it('when the class has 3 results (1 above, 2 below), then the results panel shows 33% / 0% / 67% and the grid', async () => {
    stubFetch({
      'GET /api/classes/c1': () => jsonResponse(200, cls),
      'GET /api/classes/c1/results': () =>
        jsonResponse(200, [result('r1', 'above', 95), result('r2', 'below', 40), result('r3', 'below', 55)]),
      'GET /api/classes/c1/grid': () => jsonResponse(200, grid),
    });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Biology' })).toBeInTheDocument();
    expect(screen.getByTestId('stat-Students Enrolled')).toHaveTextContent('3');
    expect(screen.getByTestId('stat-Below Standard')).toHaveTextContent('2');

    const panel = screen.getByRole('region', { name: 'Class Results' });
    expect(await within(panel).findByTestId('band-Above Standard')).toHaveTextContent('33%');
    expect(within(panel).getByTestId('band-At Standard')).toHaveTextContent('0%');
    expect(within(panel).getByTestId('band-Below Standard')).toHaveTextContent('67%');
    expect(within(panel).getByText('3 results submitted')).toBeInTheDocument();
    expect(await within(panel).findByRole('rowheader', { name: 'Ada Byron' })).toBeInTheDocument();
    expect(within(panel).getByRole('cell', { name: '95%, Above Standard' })).toBeInTheDocument();
  });

  it('when the class has no results, then every band shows 0%', async () => {
    stubFetch({
      'GET /api/classes/c1': () => jsonResponse(200, { ...cls, belowStandard: 0, aboveStandard: 0 }),
      'GET /api/classes/c1/results': () => jsonResponse(200, []),
      'GET /api/classes/c1/grid': () => jsonResponse(200, { ...grid, cells: [] }),
    });
    renderPage();
    expect(await screen.findByTestId('band-Above Standard')).toHaveTextContent('0%');
    expect(screen.getByTestId('band-At Standard')).toHaveTextContent('0%');
    expect(screen.getByTestId('band-Below Standard')).toHaveTextContent('0%');
    expect(await screen.findByRole('cell', { name: 'No result' })).toHaveTextContent('—');
  });

  it('when the class does not exist, then Class not found shows without a results panel', async () => {
    stubFetch({});
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Class not found' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Class Results' })).not.toBeInTheDocument();
  });

  it('when the teacher co-teaches the class, then the page says whose it is and lists its teachers', async () => {
    stubFetch({
      'GET /api/classes/c1': () => jsonResponse(200, { ...cls, coTeaching: true }),
      'GET /api/classes/c1/results': () => jsonResponse(200, []),
      'GET /api/classes/c1/grid': () => jsonResponse(200, { ...grid, cells: [] }),
      'GET /api/classes/c1/teachers': () =>
        jsonResponse(200, [
          { id: 't1', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@school.org', owner: true },
          { id: 'u1', firstName: 'Cora', lastName: 'Teach', email: 'cora@school.org', owner: false },
        ]),
    });
    renderPage();
    expect(await screen.findByText('Co-teaching with Ada Lovelace')).toBeInTheDocument();
    const teachers = screen.getByRole('region', { name: 'Teachers' });
    expect(await within(teachers).findByText('Cora Teach')).toBeInTheDocument();
    expect(within(teachers).getByText('Owner')).toBeInTheDocument();
    expect(within(teachers).queryByLabelText('Add a co-teacher')).not.toBeInTheDocument();
  });
});
