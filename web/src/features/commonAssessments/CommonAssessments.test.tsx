import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { authApi } from '../../session/authApi';
import { stubFetch, TEACHER } from '../../test/fetchStub';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { CommonAssessmentsPage } from './CommonAssessmentsPage';
import { CommonReport } from './CommonReport';
import { DistrictAssessments } from './DistrictAssessments';
import type { CommonAssessment, CommonAssessmentReport } from './commonAssessmentsApi';

const ADMIN = { ...TEACHER, id: 'a1', role: 'admin' as const, accountType: 'district' as const };
const DISTRICT_TEACHER = { ...TEACHER, accountType: 'district' as const };
const ID = '11111111-1111-4111-8111-111111111111';
const CLASS = '22222222-2222-4222-8222-222222222222';

const common = (over: Partial<CommonAssessment> = {}): CommonAssessment => ({
  id: ID,
  title: 'Ratios benchmark',
  description: 'Unit 2',
  topic: '',
  standard: '',
  status: 'draft',
  targets: { schools: [], grades: [], subjects: [] },
  publishedAt: null,
  createdAt: '2026-01-05T10:00:00.000Z',
  updatedAt: '2026-01-05T10:00:00.000Z',
  questionCount: 1,
  classIds: [],
  ...over,
});

const bodyOf = (init: RequestInit | undefined) => JSON.parse(String(init?.body)) as unknown;

async function render(ui: React.ReactElement, user: typeof ADMIN | typeof DISTRICT_TEACHER) {
  const store = makeStore();
  await store.dispatch(authApi.util.upsertQueryData('getCurrentUser', undefined, user));
  return renderWithProviders(ui, { store });
}

describe('common assessments (admin)', () => {
  it('when the admin saves without a title or a question, then both messages show and nothing is sent', async () => {
    const sent: unknown[] = [];
    stubFetch({
      'GET /api/common-assessments': () => jsonResponse(200, []),
      'POST /api/common-assessments': (init) => {
        sent.push(bodyOf(init));
        return jsonResponse(201, common());
      },
    });
    await render(<CommonAssessmentsPage />, ADMIN);
    expect(await screen.findByText(/No common assessments yet/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    expect(screen.getByText('Title is required')).toBeInTheDocument();
    expect(screen.getByText('A common assessment needs at least one question')).toBeInTheDocument();
    expect(sent).toEqual([]);
  });

  it('when the admin writes a title and a true/false question, then the draft is sent with them', async () => {
    const sent: unknown[] = [];
    stubFetch({
      'GET /api/common-assessments': () => jsonResponse(200, []),
      'GET /api/standards/frameworks': () => jsonResponse(200, []),
      'POST /api/common-assessments': (init) => {
        sent.push(bodyOf(init));
        return jsonResponse(201, common());
      },
    });
    await render(<CommonAssessmentsPage />, ADMIN);
    const form = screen.getByRole('form', { name: 'New common assessment' });
    await userEvent.type(within(form).getByLabelText('Title'), 'Ratios benchmark');
    await userEvent.type(screen.getByLabelText(/Question text/i), 'Is 2:4 equal to 1:2?');
    await userEvent.selectOptions(screen.getByLabelText(/Question type/i), 'true_false');
    await userEvent.click(screen.getByLabelText('True'));
    await userEvent.click(screen.getByRole('button', { name: 'Add Question' }));
    expect(await screen.findByText('Is 2:4 equal to 1:2?')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save draft' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      title: 'Ratios benchmark',
      questions: [
        {
          questionText: 'Is 2:4 equal to 1:2?',
          questionType: 'true_false',
          options: ['True', 'False'],
          correctAnswer: 'True',
          points: 1,
          standards: [],
        },
      ],
    });
  });

  it('when the admin ticks a school by name and two grades, then the targets are sent as lists (none ticked: all) and it shows as published', async () => {
    const sent: unknown[] = [];
    stubFetch({
      'GET /api/common-assessments/targets': () =>
        jsonResponse(200, {
          schools: [
            { id: 'org-hill', name: 'Hill Middle' },
            { id: 'org-lake', name: 'Lake Middle' },
          ],
          grades: ['06', '07', '08'],
          subjects: ['Math'],
        }),
      'GET /api/common-assessments': () =>
        jsonResponse(200, [
          sent.length
            ? common({ status: 'published', targets: { schools: ['org-lake'], grades: ['06', '07'], subjects: [] } })
            : common(),
        ]),
      [`POST /api/common-assessments/${ID}/publish`]: (init) => {
        sent.push(bodyOf(init));
        return jsonResponse(200, common({ status: 'published' }));
      },
    });
    await render(<CommonAssessmentsPage />, ADMIN);
    await userEvent.click(await screen.findByRole('button', { name: 'Publish…' }));
    const form = await screen.findByRole('form', { name: 'Publish Ratios benchmark' });
    const group = (name: string) => within(form).getByRole('group', { name });
    await userEvent.click(within(group('Schools')).getByRole('checkbox', { name: 'Lake Middle' }));
    await userEvent.click(within(group('Grades')).getByRole('checkbox', { name: '06' }));
    await userEvent.click(within(group('Grades')).getByRole('checkbox', { name: '07' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(sent).toEqual([{ schools: ['org-lake'], grades: ['06', '07'], subjects: [] }]));
    expect(await screen.findByRole('button', { name: 'View report' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByText('Schools: org-lake · Grades: 06, 07 · Subjects: all')).toBeInTheDocument();
  });
});

describe('publishing where no class has a school yet', () => {
  it('when the district’s classes name no school, then schools are typed, comma-separated', async () => {
    const sent: unknown[] = [];
    stubFetch({
      'GET /api/common-assessments/targets': () => jsonResponse(200, { schools: [], grades: [], subjects: [] }),
      'GET /api/common-assessments': () => jsonResponse(200, [common()]),
      [`POST /api/common-assessments/${ID}/publish`]: (init) => {
        sent.push(bodyOf(init));
        return jsonResponse(200, common({ status: 'published' }));
      },
    });
    await render(<CommonAssessmentsPage />, ADMIN);
    await userEvent.click(await screen.findByRole('button', { name: 'Publish…' }));
    const form = await screen.findByRole('form', { name: 'Publish Ratios benchmark' });
    await userEvent.type(within(form).getByLabelText('Schools (comma-separated)'), 'org-1, org-2');
    await userEvent.click(within(form).getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(sent).toEqual([{ schools: ['org-1', 'org-2'], grades: [], subjects: [] }]));
  });
});

describe('a draft’s questions (admin)', () => {
  const stored = {
    id: '33333333-3333-4333-8333-333333333333',
    position: 1,
    questionText: 'Is 2:4 the ratio 1:2?',
    questionType: 'true_false',
    options: ['True', 'False'],
    correctAnswer: 'true',
    acceptedAnswers: [],
    points: 1,
    standards: [
      { identifier: 'item-6-rp-a-1', code: '6.RP.A.1', uri: 'https://case.example/6.RP.A.1', frameworkId: null },
    ],
  };

  it('when the admin edits a draft’s questions, then an empty list is refused before sending, and the list is saved whole with each question’s alignment', async () => {
    const sent: unknown[] = [];
    stubFetch({
      'GET /api/common-assessments': () => jsonResponse(200, [common({ questionCount: 1 })]),
      [`GET /api/common-assessments/${ID}`]: () => jsonResponse(200, { ...common(), questions: [stored] }),
      'GET /api/standards/frameworks': () => jsonResponse(200, []),
      [`PUT /api/common-assessments/${ID}/questions`]: (init) => {
        sent.push(bodyOf(init));
        return jsonResponse(200, []);
      },
    });
    await render(<CommonAssessmentsPage />, ADMIN);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit questions' }));
    const section = await screen.findByRole('region', { name: 'Questions of Ratios benchmark' });
    expect(await within(section).findByText(/Is 2:4 the ratio 1:2\?/)).toBeInTheDocument();

    // Nothing left: refused before sending.
    await userEvent.click(within(section).getByRole('button', { name: 'Remove question 1' }));
    await userEvent.click(within(section).getByRole('button', { name: 'Save questions' }));
    expect(within(section).getByRole('alert')).toHaveTextContent('A common assessment needs at least one question');
    expect(sent).toEqual([]);

    // Back with the stored one kept: it is sent with its standard's identifier.
    await userEvent.click(screen.getByRole('button', { name: 'Close questions' }));
    await userEvent.click(screen.getByRole('button', { name: 'Edit questions' }));
    const again = await screen.findByRole('region', { name: 'Questions of Ratios benchmark' });
    await userEvent.click(await within(again).findByRole('button', { name: 'Save questions' }));
    await waitFor(() =>
      expect(sent).toEqual([
        {
          questions: [
            {
              questionText: 'Is 2:4 the ratio 1:2?',
              questionType: 'true_false',
              options: ['True', 'False'],
              correctAnswer: 'true',
              acceptedAnswers: [],
              points: 1,
              standards: ['item-6-rp-a-1'],
            },
          ],
        },
      ]),
    );
  });
});

describe('common assessment report', () => {
  it('when a class has fewer than 5 students, then its row shows no figures, and the report can be downloaded as CSV', async () => {
    const report: CommonAssessmentReport = {
      commonAssessmentId: ID,
      title: 'Ratios benchmark',
      district: {
        suppressed: false,
        students: 12,
        submitted: 10,
        averagePercentage: 71,
        levels: { below: 3, at: 4, above: 3 },
        standards: [{ identifier: 'x', code: '6.RP.A.1', suppressed: false, students: 10, averagePercentage: 71 }],
      },
      schools: [
        {
          schoolId: 's1',
          schoolName: 'Oak Middle',
          suppressed: false,
          students: 12,
          submitted: 10,
          averagePercentage: 71,
          levels: { below: 3, at: 4, above: 3 },
          standards: [],
          classes: [
            {
              classId: 'c1',
              className: 'Period 1',
              suppressed: false,
              students: 9,
              submitted: 8,
              averagePercentage: 75,
            },
            { classId: 'c2', className: 'Period 2', suppressed: true },
          ],
        },
      ],
    };
    stubFetch({ [`GET /api/common-assessments/${ID}/report`]: () => jsonResponse(200, report) });
    await render(<CommonReport id={ID} />, ADMIN);
    const small = (await screen.findByRole('rowheader', { name: 'Oak Middle / Period 2' })).closest('tr')!;
    expect(within(small).getByText('fewer than 5 students')).toBeInTheDocument();
    expect(within(small).queryByText(/%/)).toBeNull();
    const district = screen.getByRole('rowheader', { name: 'District' }).closest('tr')!;
    expect(within(district).getByText('71%')).toBeInTheDocument();
    expect(within(district).getByText('6.RP.A.1: 71%')).toBeInTheDocument();
    const csv = screen.getByRole('link', { name: 'Export report CSV' });
    expect(csv).toHaveAttribute('href', `/api/common-assessments/${ID}/report/export`);
    expect(csv).toHaveAttribute('download');
  });

  it('when no class has been given it yet, then there is no CSV to download', async () => {
    const report: CommonAssessmentReport = {
      commonAssessmentId: ID,
      title: '',
      district: { suppressed: true },
      schools: [],
    };
    stubFetch({ [`GET /api/common-assessments/${ID}/report`]: () => jsonResponse(200, report) });
    await render(<CommonReport id={ID} />, ADMIN);
    expect(await screen.findByText('No class has been given it yet.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Export report CSV' })).toBeNull();
  });
});

describe('district assessments (teacher)', () => {
  it('when a teacher assigns a published one to a class, then the class is sent and the copy is linked', async () => {
    const sent: unknown[] = [];
    stubFetch({
      'GET /api/common-assessments': () =>
        jsonResponse(200, [
          common({ status: 'published', classIds: [CLASS] }),
          common({ id: 'd', title: 'Draft one' }),
        ]),
      'GET /api/classes': () => jsonResponse(200, [{ id: CLASS, name: 'Math 6A' }]),
      [`POST /api/common-assessments/${ID}/assign`]: (init) => {
        sent.push(bodyOf(init));
        return jsonResponse(201, { id: 'copy-1', classId: CLASS, title: 'Ratios benchmark' });
      },
    });
    await render(<DistrictAssessments />, DISTRICT_TEACHER);
    const form = await screen.findByRole('form', { name: 'Assign Ratios benchmark' });
    expect(screen.queryByText('Draft one')).toBeNull();
    await userEvent.click(within(form).getByRole('button', { name: 'Assign to class' }));
    expect(within(form).getByText('Choose a class')).toBeInTheDocument();
    await waitFor(() => expect(within(form).getByRole('option', { name: 'Math 6A' })).toBeInTheDocument());
    await userEvent.selectOptions(within(form).getByLabelText('Class'), CLASS);
    await userEvent.click(within(form).getByRole('button', { name: 'Assign to class' }));
    expect(await screen.findByRole('link', { name: "Open the class's copy" })).toHaveAttribute(
      'href',
      '/assessment-preview/copy-1',
    );
    expect(sent).toEqual([{ classId: CLASS }]);
  });

  it('when nothing is published for their classes, then the empty text shows', async () => {
    stubFetch({
      'GET /api/common-assessments': () => jsonResponse(200, []),
      'GET /api/classes': () => jsonResponse(200, []),
    });
    await render(<DistrictAssessments />, DISTRICT_TEACHER);
    expect(await screen.findByText(/has not published an assessment/)).toBeInTheDocument();
  });
});
