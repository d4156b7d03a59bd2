import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Assessment, Class } from '../../api/generated/endpoints';
import { TEACHER, stubFetch } from '../../test/fetchStub';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { AssessmentPreviewPage } from './AssessmentPreviewPage';

const klass = (id: string, name: string, period: string): Class => ({
  id,
  name,
  subject: 'Science',
  period,
  joinCode: 'ABC123',
  createdAt: '2026-03-01T10:00:00.000Z',
  teacherId: 'u1',
  teacherName: 'Ada Lovelace',
  studentCount: 2,
  assessmentCount: 1,
  belowStandard: 0,
  atStandard: 0,
  aboveStandard: 0,
  archived: false,
  coTeaching: false,
});

const ASSESSMENT: Assessment = {
  id: 'a1',
  classId: 'c1',
  title: 'Cells Quiz',
  description: '',
  topic: 'Cells',
  standard: '',
  dueDate: null,
  isActive: true,
  isAssigned: false,
  assignedAt: null,
  status: 'draft',
  assignedTo: [],
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
  commonAssessmentId: null,
  shuffleQuestions: false,
  shuffleOptions: false,
  reviewShortAnswers: false,
  opensAt: null,
  closesAt: null,
  timeLimitSeconds: null,
  maxAttempts: 1,
  countedAttempt: 'latest',
  className: 'Biology',
  subject: 'Science',
  questionCount: 2,
  responseCount: 0,
  assignedCount: 0,
  contentToAssess: 'Cells…',
  questionType: 'multiple_choice',
  numberOfQuestions: 2,
  generationStatus: 'ready',
  generationProvider: 'offline',
  generationError: null,
  standards: [],
  canEdit: true,
};

const member = (id: string, firstName: string) => ({
  id: `m-${id}`,
  joinedAt: '2026-03-01T10:00:00.000Z',
  student: { id, firstName, lastName: 'Lee', email: null, profileImageUrl: null },
});

function renderPage(assign: (body: unknown) => Response, copy?: (body: unknown) => Response) {
  const fetch = stubFetch({
    'GET /api/auth/user': () => jsonResponse(200, TEACHER),
    'GET /api/assessments/a1': () => jsonResponse(200, ASSESSMENT),
    'GET /api/assessments/a1/questions': () => jsonResponse(200, []),
    'GET /api/classes': () => jsonResponse(200, [klass('c1', 'Biology', '1'), klass('c3', 'Biology', '3')]),
    'GET /api/classes/c1/students': () => jsonResponse(200, [member('s1', 'Ann'), member('s2', 'Ben')]),
    'GET /api/classes/c3/students': () => jsonResponse(200, [member('s3', 'Cal')]),
    'POST /api/assessments/a1/assign': (init) => assign(JSON.parse(String(init?.body))),
    'POST /api/assessments/a1/copy': (init) => (copy ?? assign)(JSON.parse(String(init?.body))),
  });
  const view = renderWithProviders(
    <Routes>
      <Route path="/assessment-preview/:id" element={<AssessmentPreviewPage />} />
    </Routes>,
    { route: '/assessment-preview/a1' },
  );
  return { ...view, fetch };
}

describe('Assign to classes or students', () => {
  it('when the teacher ticks a second class, then both are sent and the dialog closes', async () => {
    const sent: unknown[] = [];
    const { user } = renderPage((body) => {
      sent.push(body);
      return jsonResponse(200, { message: 'Assessment assigned to 3 students', assignedCount: 3 });
    });
    await user.click(await screen.findByRole('button', { name: 'Assign to classes or students…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign to classes or students' });
    // Its own class is ticked to begin with.
    expect(await within(dialog).findByLabelText('Biology - Period 1 (its class)')).toBeChecked();
    await user.click(within(dialog).getByLabelText('Biology - Period 3'));
    await user.click(within(dialog).getByRole('button', { name: 'Assign' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent).toEqual([{ classIds: ['c1', 'c3'] }]);
  });

  it('when only chosen students are to take it, then their ids are sent, and a refusal names the class', async () => {
    const sent: unknown[] = [];
    const { user } = renderPage((body) => {
      sent.push(body);
      return jsonResponse(400, {
        message: 'Invalid body: classIds.1',
        code: 'validation_failed',
        fields: { 'classIds.1': 'None of the chosen students is in this class' },
      });
    });
    await user.click(await screen.findByRole('button', { name: 'Assign to classes or students…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign to classes or students' });
    await user.click(await within(dialog).findByLabelText('Biology - Period 3'));
    await user.click(within(dialog).getByLabelText('Only the students I choose'));
    // Nothing chosen yet: nothing to send.
    expect(within(dialog).getByRole('button', { name: 'Assign' })).toBeDisabled();
    await user.click(await within(dialog).findByLabelText('Ben Lee'));
    await user.click(within(dialog).getByRole('button', { name: 'Assign' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Biology - Period 3: None of the chosen students is in this class',
    );
    expect(sent).toEqual([{ classIds: ['c1', 'c3'], studentIds: ['s2'] }]);
  });

  it('when copied to another class, then the chosen class and title are sent and the copy opens', async () => {
    const sent: unknown[] = [];
    const { user, fetch } = renderPage(
      () => jsonResponse(500, {}),
      (body) => {
        sent.push(body);
        return jsonResponse(201, { ...ASSESSMENT, id: 'a2', classId: 'c3', className: 'Biology' });
      },
    );
    await user.click(await screen.findByRole('button', { name: 'Copy to a class…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Copy to a class' });
    // Another class is offered first.
    expect(await within(dialog).findByLabelText('Class')).toHaveValue('c3');
    const title = within(dialog).getByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'Cells Quiz (P3)');
    await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(sent).toEqual([{ classId: 'c3', title: 'Cells Quiz (P3)' }]));
    await waitFor(() =>
      expect(fetch.mock.calls.some(([url]) => String(url).endsWith('/api/assessments/a2'))).toBe(true),
    );
  });
});
