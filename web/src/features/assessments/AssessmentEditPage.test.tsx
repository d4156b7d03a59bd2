import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch } from '../../test/fetchStub';
import { AssessmentEditPage } from './AssessmentEditPage';
import type { Question } from './assessmentsApi';

const ASSESSMENT = {
  id: 'a1',
  classId: 'c1',
  title: 'Plants',
  description: '',
  topic: 'Photosynthesis',
  standard: '',
  dueDate: null,
  isActive: true,
  isAssigned: false,
  status: 'draft',
  assignedTo: [],
  createdAt: '2026-03-05T10:00:00.000Z',
  className: 'Biology 7',
  questionCount: 2,
  responseCount: 0,
  shuffleQuestions: false,
  shuffleOptions: true,
  maxAttempts: 1,
  countedAttempt: 'latest',
  canEdit: true,
};

const mc = (id: string, text: string, position: number): Question => ({
  id,
  assessmentId: 'a1',
  questionText: text,
  questionType: 'multiple_choice',
  options: ['Leaf', 'Root', 'Stem', 'Flower'],
  correctAnswer: 'Leaf',
  points: '1.00',
  position,
});

function renderPage(
  questions: Question[],
  assessment: object = ASSESSMENT,
  extra: Parameters<typeof stubFetch>[0] = {},
) {
  let current = questions;
  const fetch = stubFetch({
    ...extra,
    'GET /api/assessments/a1': () => jsonResponse(200, assessment),
    'GET /api/assessments/a1/questions': () => jsonResponse(200, current),
    'PUT /api/assessments/a1/questions/order': (init) => {
      const { questionIds } = JSON.parse(String(init?.body)) as { questionIds: string[] };
      current = questionIds.map((id, i) => ({ ...current.find((q) => q.id === id)!, position: i + 1 }));
      return jsonResponse(200, current);
    },
    'PUT /api/questions/q1': (init) => jsonResponse(200, { ...current[0], ...JSON.parse(String(init?.body)) }),
    'PUT /api/assessments/a1': (init) => jsonResponse(200, { ...assessment, ...JSON.parse(String(init?.body)) }),
  });
  const rendered = renderWithProviders(
    <Routes>
      <Route path="/assessment-edit/:id" element={<AssessmentEditPage />} />
    </Routes>,
    { route: '/assessment-edit/a1' },
  );
  const bodyOf = (method: string, url: string) => {
    const call = fetch.mock.calls.findLast(([u, init]) => u === url && init?.method === method);
    return call ? (JSON.parse(String(call[1]?.body)) as Record<string, unknown>) : undefined;
  };
  return { ...rendered, bodyOf };
}

const RATIO = {
  identifier: 'item-6-rp-a-1',
  code: '6.RP.A.1',
  uri: 'https://case.example.org/item-6-rp-a-1',
  statement: 'Understand the concept of a ratio.',
  frameworkId: '44444444-4444-4444-8444-444444444444',
};

describe('AssessmentEditPage', () => {
  it('when a question has standards, then their codes show with the statement; editing changes them', async () => {
    const aligned = {
      ...mc('q1', 'What is a ratio?', 1),
      standards: [{ identifier: RATIO.identifier, code: RATIO.code, uri: RATIO.uri }],
    };
    const { user, bodyOf } = renderPage(
      [aligned],
      { ...ASSESSMENT, standards: [RATIO] },
      {
        'GET /api/standards/frameworks': () => jsonResponse(200, [{ id: RATIO.frameworkId, title: 'Math' }]),
        'GET /api/standards/search?q=6.RP.A.2&limit=10': () =>
          jsonResponse(200, [
            {
              ...RATIO,
              identifier: 'item-6-rp-a-2',
              code: '6.RP.A.2',
              statement: 'Understand unit rates.',
              frameworkTitle: 'Math',
              educationLevels: ['06'],
            },
          ]),
      },
    );
    const chips = await screen.findByRole('list', { name: 'Standards of question 1' });
    expect(within(chips).getByTestId('standard-chip')).toHaveAttribute('title', RATIO.statement);
    expect(within(chips).getByTestId('standard-chip')).toHaveTextContent(
      '6.RP.A.1: Understand the concept of a ratio.',
    );
    await user.click(screen.getByRole('button', { name: 'Edit Question 1' }));
    const form = screen.getByRole('form', { name: 'Save Question' });
    await user.click(within(form).getByRole('button', { name: 'Remove 6.RP.A.1' }));
    await user.type(await within(form).findByRole('combobox', { name: 'Standards' }), '6.RP.A.2');
    await within(form).findByRole('option', { name: /6\.RP\.A\.2/ });
    await user.keyboard('{Enter}');
    await user.click(within(form).getByRole('button', { name: 'Save Question' }));
    await waitFor(() => expect(bodyOf('PUT', '/api/questions/q1')).toMatchObject({ standards: ['item-6-rp-a-2'] }));
  });

  it('when the tenant has no frameworks and the question no standards, then no standards are offered or sent', async () => {
    const { user, bodyOf } = renderPage([mc('q1', 'Where does photosynthesis happen?', 1)]);
    await user.click(await screen.findByRole('button', { name: 'Edit Question 1' }));
    const form = screen.getByRole('form', { name: 'Save Question' });
    expect(within(form).queryByRole('combobox', { name: 'Standards' })).not.toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Save Question' }));
    await waitFor(() => expect(bodyOf('PUT', '/api/questions/q1')).toBeDefined());
    expect(bodyOf('PUT', '/api/questions/q1')).not.toHaveProperty('standards');
  });

  it('when the teacher marks option C and sets 3 points, then the key sent is the text of option C', async () => {
    const { user, bodyOf } = renderPage([mc('q1', 'Where does photosynthesis happen?', 1)]);
    await user.click(await screen.findByRole('button', { name: 'Edit Question 1' }));
    const form = screen.getByRole('form', { name: 'Save Question' });
    expect(within(form).getByRole('radio', { name: 'Option A is correct' })).toBeChecked();
    await user.click(within(form).getByRole('radio', { name: 'Option C is correct' }));
    const points = within(form).getByLabelText('Points');
    await user.clear(points);
    await user.type(points, '3');
    await user.click(within(form).getByRole('button', { name: 'Save Question' }));
    await waitFor(() =>
      expect(bodyOf('PUT', '/api/questions/q1')).toEqual({
        questionText: 'Where does photosynthesis happen?',
        questionType: 'multiple_choice',
        options: ['Leaf', 'Root', 'Stem', 'Flower'],
        correctAnswer: 'Stem',
        points: 3,
      }),
    );
  });

  it('when two options are the same, then the form says so and nothing is sent', async () => {
    const { user, bodyOf } = renderPage([mc('q1', 'Where?', 1)]);
    await user.click(await screen.findByRole('button', { name: 'Edit Question 1' }));
    const optionB = screen.getByRole('textbox', { name: 'Option B' });
    await user.clear(optionB);
    await user.type(optionB, 'leaf');
    await user.click(screen.getByRole('button', { name: 'Save Question' }));
    expect(await screen.findByText('Options must all be different')).toBeInTheDocument();
    expect(optionB).toHaveAttribute('aria-invalid', 'true');
    expect(bodyOf('PUT', '/api/questions/q1')).toBeUndefined();
  });

  it('when question 2 is moved up with the keyboard, then the new order is sent, announced and focus stays on it', async () => {
    const { user, bodyOf } = renderPage([mc('q1', 'First?', 1), mc('q2', 'Second?', 2)]);
    const up = await screen.findByRole('button', { name: 'Move question 2 up' });
    expect(screen.getByRole('button', { name: 'Move question 1 up' })).toBeDisabled();
    up.focus();
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(bodyOf('PUT', '/api/assessments/a1/questions/order')).toEqual({ questionIds: ['q2', 'q1'] }),
    );
    // The list re-renders in the new order: look the sections up again on each try.
    await waitFor(() =>
      expect(
        within(screen.getAllByRole('region', { name: /^Question \d$/ })[0]!).getByText(/Second\?/),
      ).toBeInTheDocument(),
    );
    expect(await screen.findByText('Question moved to position 1 of 2.')).toBeInTheDocument();
    // At the top its Up button is disabled, so focus is on its Down button.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move question 1 down' })).toHaveFocus());
  });

  it('when students have submitted, then adding, duplicating and deleting are off and the page says why', async () => {
    renderPage([mc('q1', 'First?', 1)], { ...ASSESSMENT, responseCount: 2, status: 'assigned', isAssigned: true });
    expect(await screen.findByText(/Students have already submitted this assessment/)).toBeInTheDocument();
    // The banner follows the assessment; the questions arrive in their own request.
    expect(await screen.findByRole('button', { name: 'Duplicate Question 1' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Delete Question 1' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Add Question' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add from Bank' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Question 1' })).toBeEnabled();
    // Its questions may still be kept in the bank.
    expect(screen.getByRole('button', { name: 'Save Question 1 to Bank' })).toBeEnabled();
  });

  it('when questions are added from the bank, then the list is read again and shows them', async () => {
    const added = mc('q9', 'From the bank?', 2);
    let questions = [mc('q1', 'First?', 1)];
    const item = { ...added, id: '99999999-9999-4999-8999-999999999999', points: 1, acceptedAnswers: [] };
    const bankItem = {
      ...item,
      subject: 'Science',
      grade: '7',
      topic: '',
      standard: '',
      standards: [],
      visibility: 'private',
      author: { id: 'u1', name: 'Ada Lovelace' },
      mine: true,
      canEdit: true,
      createdAt: '2026-03-05T10:00:00.000Z',
      updatedAt: '2026-03-05T10:00:00.000Z',
    };
    stubFetch({
      'GET /api/assessments/a1': () => jsonResponse(200, ASSESSMENT),
      'GET /api/assessments/a1/questions': () => jsonResponse(200, questions),
      'GET /api/bank/items?page=1&pageSize=10': () =>
        jsonResponse(200, { items: [bankItem], page: 1, pageSize: 10, hasMore: false }),
      'POST /api/assessments/a1/questions/from-bank': () => {
        questions = [...questions, added];
        return jsonResponse(201, [added]);
      },
    });
    const { user } = renderWithProviders(
      <Routes>
        <Route path="/assessment-edit/:id" element={<AssessmentEditPage />} />
      </Routes>,
      { route: '/assessment-edit/a1' },
    );
    await user.click(await screen.findByRole('button', { name: 'Add from Bank' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add questions from the bank' });
    await user.click(await within(dialog).findByLabelText('Choose: From the bank?'));
    await user.click(within(dialog).getByRole('button', { name: 'Add 1 to Assessment' }));
    expect(await screen.findByRole('heading', { name: 'Questions (2)' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Question 2' })).toHaveTextContent('From the bank?');
  });

  it("when it is a class's copy of a district common assessment, then no question can be changed and the page says why", async () => {
    renderPage([mc('q1', 'First?', 1), mc('q2', 'Second?', 2)], {
      ...ASSESSMENT,
      commonAssessmentId: '55555555-5555-4555-8555-555555555555',
      status: 'assigned',
      isAssigned: true,
    });
    expect(await screen.findByTestId('common-locked')).toHaveTextContent(/questions are locked/);
    const first = await screen.findByRole('region', { name: 'Question 1' });
    expect(within(first).getByText(/First\?/)).toBeInTheDocument();
    for (const name of [/Edit Question/, /Delete Question/, /Duplicate Question/, /Move question/, 'Add Question']) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
    // Its details stay the teacher's (title, description, due date).
    expect(screen.getByRole('button', { name: 'Save Details' })).toBeEnabled();
  });

  it('when only the title changes, then the stored open and close times are not sent (kept to the second)', async () => {
    const { user, bodyOf } = renderPage([], { ...ASSESSMENT, closesAt: '2026-12-01T15:00:30.000Z' });
    const title = await screen.findByLabelText('Title');
    await user.type(title, ' II');
    await user.click(screen.getByRole('button', { name: 'Save Details' }));
    await waitFor(() => expect(bodyOf('PUT', '/api/assessments/a1')).toMatchObject({ title: 'Plants II' }));
    expect(bodyOf('PUT', '/api/assessments/a1')).not.toHaveProperty('closesAt');
    expect(bodyOf('PUT', '/api/assessments/a1')).not.toHaveProperty('opensAt');
  });

  it('when an open time just saved is cleared again, then null is sent for it', async () => {
    const { user, bodyOf } = renderPage([]);
    const opens = await screen.findByLabelText('Opens at');
    await user.type(opens, '2026-12-02T09:00');
    await user.click(screen.getByRole('button', { name: 'Save Details' }));
    await waitFor(() => expect(bodyOf('PUT', '/api/assessments/a1')).toHaveProperty('opensAt'));
    await user.clear(opens);
    await user.click(screen.getByRole('button', { name: 'Save Details' }));
    await waitFor(() => expect(bodyOf('PUT', '/api/assessments/a1')).toMatchObject({ opensAt: null }));
  });

  it('when a time limit in minutes is set, then it is sent in seconds; a blank one is no time limit; a bad one is named', async () => {
    const { user, bodyOf } = renderPage([], { ...ASSESSMENT, timeLimitSeconds: 1200 });
    const limit = await screen.findByLabelText('Time limit (minutes)');
    expect(limit).toHaveValue('20');
    await user.clear(limit);
    await user.type(limit, '0');
    await user.click(screen.getByRole('button', { name: 'Save Details' }));
    expect(await screen.findByText('Time limit must be from 1 to 1440 minutes (24 hours)')).toBeInTheDocument();
    expect(bodyOf('PUT', '/api/assessments/a1')).toBeUndefined();
    await user.clear(limit);
    await user.type(limit, '45');
    await user.click(screen.getByRole('button', { name: 'Save Details' }));
    await waitFor(() => expect(bodyOf('PUT', '/api/assessments/a1')).toMatchObject({ timeLimitSeconds: 2700 }));
    expect(bodyOf('PUT', '/api/assessments/a1')).not.toHaveProperty('timeLimitMinutes');
    await user.clear(limit);
    await user.click(screen.getByRole('button', { name: 'Save Details' }));
    await waitFor(() => expect(bodyOf('PUT', '/api/assessments/a1')).toMatchObject({ timeLimitSeconds: null }));
  });

  it('when the teacher allows 3 attempts and the best counts, then both are sent with the details', async () => {
    const { user, bodyOf } = renderPage([]);
    await user.selectOptions(await screen.findByLabelText('Attempts allowed'), '3');
    await user.selectOptions(screen.getByLabelText('Which attempt counts'), 'best');
    await user.click(screen.getByRole('button', { name: 'Save Details' }));
    await waitFor(() =>
      expect(bodyOf('PUT', '/api/assessments/a1')).toMatchObject({ maxAttempts: 3, countedAttempt: 'best' }),
    );
  });

  it('when a due date is set in the details, then it is sent as an ISO date-time', async () => {
    const { user, bodyOf } = renderPage([]);
    const due = await screen.findByLabelText('Due Date');
    await user.type(due, '2026-12-01T15:30');
    await user.click(screen.getByRole('button', { name: 'Save Details' }));
    await waitFor(() =>
      expect(bodyOf('PUT', '/api/assessments/a1')).toMatchObject({
        title: 'Plants',
        topic: 'Photosynthesis',
        dueDate: new Date(2026, 11, 1, 15, 30).toISOString(),
      }),
    );
    expect(screen.getByTestId('lifecycle-status')).toHaveTextContent('Draft');
  });

  it('when the teacher ticks "Shuffle the questions", then both settings are sent with the details', async () => {
    const { user, bodyOf } = renderPage([]);
    const questions = await screen.findByRole('checkbox', { name: 'Shuffle the questions' });
    expect(questions).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: /Shuffle the answer options/ })).toBeChecked();
    expect(screen.getByRole('group', { name: 'Order for each student' })).toHaveAccessibleDescription(
      /an order of their own/,
    );
    await user.click(questions);
    await user.click(screen.getByRole('button', { name: 'Save Details' }));
    await waitFor(() =>
      expect(bodyOf('PUT', '/api/assessments/a1')).toMatchObject({ shuffleQuestions: true, shuffleOptions: true }),
    );
  });

  it('when the close time is before the open time, then the form says so; when in order, both are sent as ISO times', async () => {
    const { user, bodyOf } = renderPage([]);
    const opens = await screen.findByLabelText('Opens at');
    const closes = screen.getByLabelText('Closes at');
    await user.type(opens, '2026-12-02T09:00');
    await user.type(closes, '2026-12-01T09:00');
    await user.click(screen.getByRole('button', { name: 'Save Details' }));
    expect(await screen.findByText('Closes at must be later than Opens at')).toBeInTheDocument();
    expect(closes).toHaveAccessibleDescription(/Closes at must be later than Opens at/);
    expect(bodyOf('PUT', '/api/assessments/a1')).toBeUndefined();

    await user.clear(closes);
    await user.type(closes, '2026-12-02T10:00');
    await user.click(screen.getByRole('button', { name: 'Save Details' }));
    await waitFor(() =>
      expect(bodyOf('PUT', '/api/assessments/a1')).toMatchObject({
        opensAt: new Date(2026, 11, 2, 9, 0).toISOString(),
        closesAt: new Date(2026, 11, 2, 10, 0).toISOString(),
      }),
    );
  });
});

describe('AssessmentEditPage for a teacher who may not change it', () => {
  it('when the caller teaches a class it is only assigned to (canEdit false), then no form or question control shows, and a note says why', async () => {
    renderPage([mc('q1', 'Where does photosynthesis happen?', 1)], { ...ASSESSMENT, canEdit: false });
    const note = await screen.findByTestId('read-only-note');
    expect(note).toHaveTextContent('Read only');
    expect(note).toHaveTextContent('the class Biology 7');
    expect(note).toHaveTextContent('only the teachers of its own class can edit');
    expect(screen.queryByRole('form', { name: 'Assessment details' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save Details' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Edit Question/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Delete Question/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add Question' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← Back to Preview' })).toHaveAttribute('href', '/assessment-preview/a1');
  });

  it('when the caller teaches its own class (canEdit true), then the form and the controls show and no note', async () => {
    renderPage([mc('q1', 'Where does photosynthesis happen?', 1)]);
    expect(await screen.findByRole('button', { name: 'Save Details' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Edit Question 1' })).toBeInTheDocument();
    expect(screen.queryByTestId('read-only-note')).not.toBeInTheDocument();
  });
});
