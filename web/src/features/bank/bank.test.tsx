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
