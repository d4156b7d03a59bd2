import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubFetch, TEACHER } from '../../test/fetchStub';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { AddFromBank } from './AddFromBank';
import { BankPage } from './BankPage';
import { SaveToBankButton } from './SaveToBankButton';
import type { BankItem } from './bankApi';

const item = (id: string, questionText: string, extra: Partial<BankItem> = {}): BankItem => ({
  id,
  questionText,
  questionType: 'multiple_choice',
  options: ['3/4', '2/6', '1/8', '2/4'],
  correctAnswer: '3/4',
  acceptedAnswers: [],
  points: 1,
  subject: 'Mathematics',
  grade: '5',
  topic: 'Fractions',
  standard: '',
  standards: [{ identifier: 'x', code: '5.NF.A.1', uri: '' }],
  visibility: 'district',
  author: { id: 'u9', name: 'Grace Hopper' },
  mine: false,
  canEdit: false,
  createdAt: '2026-11-01T10:00:00.000Z',
  updatedAt: '2026-11-01T10:00:00.000Z',
  ...extra,
});

const FRACTIONS = item('11111111-1111-4111-8111-111111111111', 'What is 1/2 + 1/4?');
const MINE = item('22222222-2222-4222-8222-222222222222', 'Name the process that turns water into vapour.', {
  questionType: 'short_answer',
  options: [],
  correctAnswer: 'evaporation',
  acceptedAnswers: ['evaporating'],
  subject: 'Science',
  visibility: 'private',
  author: { id: 'u1', name: 'Ada Lovelace' },
  mine: true,
  canEdit: true,
});
const page = (items: BankItem[], hasMore = false, n = 1) => ({ items, page: n, pageSize: 10, hasMore });

describe('Item bank page', () => {
  it('when the teacher searches with words and filters, then the matching items are previewed with their key and labels', async () => {
    const fetch = stubFetch({
      'GET /api/bank/items?page=1&pageSize=10': () => jsonResponse(200, page([FRACTIONS, MINE])),
      'GET /api/bank/items?q=vapour&type=short_answer&subject=Science&grade=7&scope=mine&page=1&pageSize=10': () =>
        jsonResponse(200, page([MINE])),
    });
    const { user } = renderWithProviders(<BankPage />);
    const list = await screen.findByRole('list', { name: 'Bank items' });
    expect(list.querySelectorAll(':scope > li')).toHaveLength(2);
    expect(list).toHaveTextContent('3/4 (correct)');
    expect(list).toHaveTextContent('5.NF.A.1');
    expect(list).toHaveTextContent('shared by Grace Hopper');
    // Only the teacher's own item offers Delete.
    expect(screen.getAllByRole('button', { name: 'Delete' })).toHaveLength(1);

    await user.type(screen.getByLabelText('Words'), 'vapour');
    await user.selectOptions(screen.getByLabelText('Type'), 'short_answer');
    await user.type(screen.getByLabelText('Subject'), 'Science');
    await user.type(screen.getByLabelText('Grade'), '7');
    await user.click(screen.getByLabelText('Only mine'));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() =>
      expect(screen.getByRole('list', { name: 'Bank items' }).querySelectorAll(':scope > li')).toHaveLength(1),
    );
    expect(screen.getByRole('list', { name: 'Bank items' })).toHaveTextContent('Answer: evaporation · evaporating');
    expect(fetch.mock.calls.map(([url]) => String(url))).toContain(
      '/api/bank/items?q=vapour&type=short_answer&subject=Science&grade=7&scope=mine&page=1&pageSize=10',
    );
  });

  it('when there is another page, then Next reads it and Previous goes back', async () => {
    stubFetch({
      'GET /api/bank/items?page=1&pageSize=10': () => jsonResponse(200, page([FRACTIONS], true)),
      'GET /api/bank/items?page=2&pageSize=10': () => jsonResponse(200, page([MINE], false, 2)),
    });
    const { user } = renderWithProviders(<BankPage />);
    expect(await screen.findByText('What is 1/2 + 1/4?')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText(MINE.questionText)).toBeInTheDocument();
    expect(screen.getByText('Page 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });

  it('when nothing is saved yet, then the page says how to save', async () => {
    stubFetch({ 'GET /api/bank/items?page=1&pageSize=10': () => jsonResponse(200, page([])) });
    renderWithProviders(<BankPage />);
    expect(await screen.findByTestId('bank-empty')).toHaveTextContent('Save questions to the bank');
  });
});

describe('Editing a bank item', () => {
  const SEARCH = 'GET /api/bank/items?page=1&pageSize=10';
  const PUT = `PUT /api/bank/items/${MINE.id}`;
  const cardOf = async (text: string) => {
    const list = await screen.findByRole('list', { name: 'Bank items' });
    const card = within(list)
      .getAllByRole('listitem')
      .find((li) => li.textContent?.includes(text));
    expect(card).toBeDefined();
    return card as HTMLElement;
  };

  it('when the author changes the text, the answer, who can find it and the labels, then the item is sent as changed and the list reads it again', async () => {
    let searches = 0;
    const fetch = stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, { ...TEACHER, accountType: 'district' }),
      [SEARCH]: () => {
        searches += 1;
        return jsonResponse(200, page([FRACTIONS, MINE]));
      },
      [PUT]: () => jsonResponse(200, { ...MINE, questionText: 'Which process makes clouds?' }),
    });
    const { user } = renderWithProviders(<BankPage />);
    await user.click(within(await cardOf(MINE.questionText)).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit bank item' });
    expect(within(dialog).getByLabelText('Question Text')).toHaveValue(MINE.questionText);
    expect(within(dialog).getByLabelText('Correct Answer')).toHaveValue('evaporation');
    expect(within(dialog).getByLabelText('Also Accept')).toHaveValue('evaporating');
    expect(within(dialog).getByLabelText('Subject')).toHaveValue('Science');
    expect(within(dialog).getByLabelText('Only me')).toBeChecked();

    await user.clear(within(dialog).getByLabelText('Question Text'));
    await user.type(within(dialog).getByLabelText('Question Text'), 'Which process makes clouds?');
    await user.clear(within(dialog).getByLabelText('Correct Answer'));
    await user.type(within(dialog).getByLabelText('Correct Answer'), 'condensation');
    await user.clear(within(dialog).getByLabelText('Also Accept'));
    await user.clear(within(dialog).getByLabelText('Grade'));
    await user.type(within(dialog).getByLabelText('Grade'), '7');
    await user.type(within(dialog).getByLabelText('Topic'), ' cycle');
    await user.type(within(dialog).getByLabelText('Standard'), 'MS-ESS2-4');
    await waitFor(() => expect(within(dialog).getByLabelText('My school')).toBeEnabled());
    await user.click(within(dialog).getByLabelText('My school'));
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Item Updated')).toBeInTheDocument();
    const put = fetch.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(String(put?.[0])).toBe(`/api/bank/items/${MINE.id}`);
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({
      questionText: 'Which process makes clouds?',
      questionType: 'short_answer',
      options: [],
      correctAnswer: 'condensation',
      acceptedAnswers: [],
      points: 1,
      standards: ['x'],
      visibility: 'school',
      subject: 'Science',
      grade: '7',
      topic: 'Fractions cycle',
      standard: 'MS-ESS2-4',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(searches).toBe(2));
  });

  it('when the author makes it multiple choice, then the options and the marked one are sent', async () => {
    const fetch = stubFetch({
      [SEARCH]: () => jsonResponse(200, page([MINE])),
      [PUT]: () => jsonResponse(200, MINE),
    });
    const { user } = renderWithProviders(<BankPage />);
    await user.click(within(await cardOf(MINE.questionText)).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit bank item' });
    await user.selectOptions(within(dialog).getByLabelText('Question Type'), 'multiple_choice');
    for (const [letter, text] of [
      ['A', 'evaporation'],
      ['B', 'condensation'],
      ['C', 'runoff'],
      ['D', 'melting'],
    ] as const)
      await user.type(within(dialog).getByLabelText(`Option ${letter}`), text);
    await user.click(within(dialog).getByLabelText('Option A is correct'));
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(fetch.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    const put = fetch.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toMatchObject({
      questionType: 'multiple_choice',
      options: ['evaporation', 'condensation', 'runoff', 'melting'],
      correctAnswer: 'evaporation',
    });
  });

  it('when the author gives hundredths of points (as the API takes them), then they show and are sent as such', async () => {
    const fetch = stubFetch({
      [SEARCH]: () => jsonResponse(200, page([{ ...MINE, points: 1.25 }])),
      [PUT]: () => jsonResponse(200, { ...MINE, points: 0.5 }),
    });
    const { user } = renderWithProviders(<BankPage />);
    await user.click(within(await cardOf(MINE.questionText)).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit bank item' });
    const points = within(dialog).getByLabelText('Points');
    expect(points).toHaveValue(1.25);
    expect(points).toHaveAttribute('step', '0.01');
    expect(points).toHaveAttribute('min', '0.01');
    expect(points).toHaveAttribute('max', '100');
    await user.clear(points);
    await user.type(points, '0.5');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Item Updated')).toBeInTheDocument();
    const put = fetch.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toMatchObject({ points: 0.5 });
  });

  it('when points are finer than hundredths or outside 0.01 to 100, then the points field says so and nothing is sent', async () => {
    const fetch = stubFetch({
      [SEARCH]: () => jsonResponse(200, page([MINE])),
      [PUT]: () => jsonResponse(200, MINE),
    });
    const { user } = renderWithProviders(<BankPage />);
    await user.click(within(await cardOf(MINE.questionText)).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit bank item' });
    const points = within(dialog).getByLabelText('Points');
    for (const wrong of ['1.255', '0', '100.5']) {
      await user.clear(points);
      await user.type(points, wrong);
      await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
      await waitFor(() =>
        expect(points).toHaveAccessibleDescription(
          'Points must be a number from 0.01 to 100, in hundredths at most (e.g. 0.5)',
        ),
      );
      expect(points).toBeInvalid();
    }
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false);
  });

  it('when the API refuses fields, then each message shows on its field and the dialog stays open', async () => {
    stubFetch({
      [SEARCH]: () => jsonResponse(200, page([MINE])),
      [PUT]: () =>
        jsonResponse(400, {
          message: 'Invalid body: questionText, correctAnswer, grade',
          code: 'VALIDATION',
          fields: {
            questionText: 'Question text must be at most 2000 characters',
            correctAnswer: 'Correct answer must be at most 500 characters',
            grade: 'Grade must be at most 20 characters',
          },
        }),
    });
    const { user } = renderWithProviders(<BankPage />);
    await user.click(within(await cardOf(MINE.questionText)).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit bank item' });
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Question Text')).toHaveAccessibleDescription(
        'Question text must be at most 2000 characters',
      ),
    );
    expect(within(dialog).getByLabelText('Correct Answer')).toHaveAccessibleDescription(
      'Correct answer must be at most 500 characters',
    );
    expect(within(dialog).getByLabelText('Grade')).toHaveAccessibleDescription('Grade must be at most 20 characters');
    expect(within(dialog).getByLabelText('Grade')).toBeInvalid();
    expect(screen.queryByText('Item Updated')).not.toBeInTheDocument();
  });

  it('when the API refuses the key of a multiple-choice item, then the message shows on the options’ marks', async () => {
    const item = { ...FRACTIONS, mine: true, canEdit: true };
    stubFetch({
      [SEARCH]: () => jsonResponse(200, page([item])),
      [`PUT /api/bank/items/${item.id}`]: () =>
        jsonResponse(400, {
          message: 'The correct answer must be one of the options',
          code: 'VALIDATION',
          fields: { correctAnswer: 'The correct answer must be one of the options' },
        }),
    });
    const { user } = renderWithProviders(<BankPage />);
    await user.click(within(await cardOf(item.questionText)).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit bank item' });
    expect(within(dialog).getByLabelText('Option A is correct')).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Option A is correct')).toHaveAccessibleDescription(
        'The correct answer must be one of the options',
      ),
    );
  });

  it('when the API no longer lets the teacher change it, then its message shows above the form', async () => {
    stubFetch({
      [SEARCH]: () => jsonResponse(200, page([MINE])),
      [PUT]: () =>
        jsonResponse(403, {
          message: 'Only its author or an admin of the district may change this item',
          code: 'FORBIDDEN',
        }),
    });
    const { user } = renderWithProviders(<BankPage />);
    await user.click(within(await cardOf(MINE.questionText)).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit bank item' });
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Only its author or an admin of the district may change this item',
    );
  });

  it('when an admin may change a colleague’s shared item, then it offers Edit and Delete; an item the API keeps from the teacher is read-only with its owner', async () => {
    const shared = item('33333333-3333-4333-8333-333333333333', 'Which is a prime number?', {
      author: { id: 'u7', name: 'Alan Turing' },
      visibility: 'school',
      canEdit: true,
    });
    stubFetch({ [SEARCH]: () => jsonResponse(200, page([FRACTIONS, shared])) });
    renderWithProviders(<BankPage />);
    const theirs = await cardOf(FRACTIONS.questionText);
    expect(within(theirs).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(within(theirs).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(within(theirs).getByTestId('read-only')).toHaveTextContent('Read only: Grace Hopper’s item');
    const editable = await cardOf(shared.questionText);
    expect(within(editable).getByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(within(editable).getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(editable).toHaveTextContent('shared by Alan Turing');
  });

  it('when the author deletes an item after confirming, then it is deleted', async () => {
    const fetch = stubFetch({
      [SEARCH]: () => jsonResponse(200, page([MINE])),
      [`DELETE /api/bank/items/${MINE.id}`]: () => new Response(null, { status: 204 }),
    });
    const { user } = renderWithProviders(<BankPage />);
    await user.click(within(await cardOf(MINE.questionText)).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this item from the bank?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Item Deleted')).toBeInTheDocument();
    expect(fetch.mock.calls.some(([url, init]) => init?.method === 'DELETE' && String(url).endsWith(MINE.id))).toBe(
      true,
    );
  });
});

describe('Save to bank', () => {
  it('when the teacher chooses their school, then the question is saved with that visibility', async () => {
    const fetch = stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, { ...TEACHER, accountType: 'district' }),
      'POST /api/bank/items': () => jsonResponse(201, { ...MINE, visibility: 'school' }),
    });
    const { user } = renderWithProviders(<SaveToBankButton questionId="q-1" n={2} />);
    await user.click(screen.getByRole('button', { name: 'Save Question 2 to Bank' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByLabelText('My school')).toBeEnabled());
    await user.click(within(dialog).getByLabelText('My school'));
    await user.click(within(dialog).getByRole('button', { name: 'Save to Bank' }));
    expect(await screen.findByText('Saved to Bank')).toBeInTheDocument();
    const post = fetch.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ questionId: 'q-1', visibility: 'school' });
  });

  it('when the account is individual, then only a private bank is offered', async () => {
    stubFetch({ 'GET /api/auth/user': () => jsonResponse(200, TEACHER) });
    const { user } = renderWithProviders(<SaveToBankButton questionId="q-1" n={1} />);
    await user.click(screen.getByRole('button', { name: 'Save Question 1 to Bank' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).getByLabelText('My district')).toBeDisabled());
    expect(within(dialog).getByLabelText('Only me')).toBeChecked();
  });
});

describe('Add from bank', () => {
  it('when the teacher ticks items and adds them, then their ids are sent in order and the dialog closes', async () => {
    const fetch = stubFetch({
      'GET /api/bank/items?page=1&pageSize=10': () => jsonResponse(200, page([FRACTIONS, MINE])),
      'POST /api/assessments/a-1/questions/from-bank': () => jsonResponse(201, [{ id: 'n1' }, { id: 'n2' }]),
    });
    const { user } = renderWithProviders(<AddFromBank assessmentId="a-1" room={5} />);
    await user.click(screen.getByRole('button', { name: 'Add from Bank' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByLabelText(`Choose: ${MINE.questionText}`));
    await user.click(within(dialog).getByLabelText(`Choose: ${FRACTIONS.questionText}`));
    await user.click(within(dialog).getByRole('button', { name: 'Add 2 to Assessment' }));
    expect(await screen.findByText('2 questions added from the bank.')).toBeInTheDocument();
    const post = fetch.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ itemIds: [MINE.id, FRACTIONS.id] });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('when the assessment has room for one more, then a second item cannot be ticked', async () => {
    stubFetch({ 'GET /api/bank/items?page=1&pageSize=10': () => jsonResponse(200, page([FRACTIONS, MINE])) });
    const { user } = renderWithProviders(<AddFromBank assessmentId="a-1" room={1} />);
    await user.click(screen.getByRole('button', { name: 'Add from Bank' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByLabelText(`Choose: ${MINE.questionText}`));
    expect(within(dialog).getByLabelText(`Choose: ${FRACTIONS.questionText}`)).toBeDisabled();
  });

  it('when the server refuses (students submitted), then its message shows', async () => {
    stubFetch({
      'GET /api/bank/items?page=1&pageSize=10': () => jsonResponse(200, page([FRACTIONS])),
      'POST /api/assessments/a-1/questions/from-bank': () =>
        jsonResponse(409, { message: 'Students have already submitted this assessment', code: 'has_submissions' }),
    });
    const { user } = renderWithProviders(<AddFromBank assessmentId="a-1" room={5} />);
    await user.click(screen.getByRole('button', { name: 'Add from Bank' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByLabelText(`Choose: ${FRACTIONS.questionText}`));
    await user.click(within(dialog).getByRole('button', { name: 'Add 1 to Assessment' }));
    expect(await screen.findByText('Students have already submitted this assessment')).toBeInTheDocument();
  });
});
