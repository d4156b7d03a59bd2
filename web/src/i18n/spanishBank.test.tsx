// The bank, standards and common assessments screens in Spanish (usted on the teacher's and the
// admin's screens, tú on the student's standards card): no raw key, and the Spanish each says.
import { screen, waitFor, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { makeStore } from '../app/store';
import { AddFromBank } from '../features/bank/AddFromBank';
import { BankPage } from '../features/bank/BankPage';
import { SaveToBankButton } from '../features/bank/SaveToBankButton';
import type { BankItem } from '../features/bank/bankApi';
import { authApi } from '../session/authApi';
import { stubFetch, TEACHER } from '../test/fetchStub';
import { expectNoRawKeys, inSpanish } from '../test/spanish';
import { jsonResponse, renderWithProviders } from '../test/test-utils';

const TEACHER_ES = { ...TEACHER, id: 'es-teacher', locale: 'es' as const, accountType: 'district' as const };

async function renderAs(user: object, ui: ReactElement, route = '/') {
  const store = makeStore();
  await store.dispatch(authApi.util.upsertQueryData('getCurrentUser', undefined, user as typeof TEACHER_ES));
  return renderWithProviders(ui, { store, route });
}

const item = (id: string, questionText: string, extra: Partial<BankItem> = {}): BankItem => ({
  id,
  questionText,
  questionType: 'multiple_choice',
  options: ['3/4', '2/6', '1/8', '2/4'],
  correctAnswer: '3/4',
  acceptedAnswers: [],
  points: 1,
  subject: 'Matemáticas',
  grade: '5',
  topic: 'Fracciones',
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
const THEIRS = item('11111111-1111-4111-8111-111111111111', '¿Cuánto es 1/2 + 1/4?');
const MINE = item('22222222-2222-4222-8222-222222222222', '¿Cómo se llama el paso del agua a vapor?', {
  questionType: 'short_answer',
  options: [],
  correctAnswer: 'evaporación',
  acceptedAnswers: ['evaporar'],
  points: 2,
  subject: 'Ciencias',
  visibility: 'private',
  author: { id: TEACHER_ES.id, name: 'Ada Lovelace' },
  mine: true,
  canEdit: true,
});
const bankPage = (items: BankItem[]) => ({ items, page: 1, pageSize: 10, hasMore: false });

inSpanish();

describe('the item bank in Spanish', () => {
  it('the bank page: search, items, the delete confirm and the edit dialog', async () => {
    stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, TEACHER_ES),
      'GET /api/bank/items?page=1&pageSize=10': () => jsonResponse(200, bankPage([THEIRS, MINE])),
    });
    const { user } = await renderAs(TEACHER_ES, <BankPage />, '/bank');
    expect(await screen.findByRole('heading', { name: 'Banco de preguntas' })).toBeInTheDocument();
    expect(screen.getByRole('search', { name: 'Buscar en el banco de preguntas' })).toBeInTheDocument();
    expect(screen.getByLabelText('Palabras')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Compartida con' })).toHaveTextContent('Mi distrito');
    const list = await screen.findByRole('list', { name: 'Preguntas del banco' });
    expect(list).toHaveTextContent('Opción múltiple');
    expect(list).toHaveTextContent('3/4 (correcta)');
    expect(list).toHaveTextContent('1 punto · compartida por Grace Hopper');
    expect(list).toHaveTextContent('2 puntos · guardada por usted');
    expect(list).toHaveTextContent('Respuesta: evaporación · evaporar');
    expect(list).toHaveTextContent('Grado 5');
    expect(screen.getByTestId('read-only')).toHaveTextContent('Solo lectura: pregunta de Grace Hopper');
    expect(screen.getByText('Página 1')).toBeInTheDocument();
    expectNoRawKeys();

    await user.click(screen.getByRole('button', { name: 'Eliminar' }));
    const confirm = await screen.findByRole('dialog', { name: '¿Eliminar esta pregunta del banco de preguntas?' });
    expect(within(confirm).getByRole('button', { name: 'Cancelar' })).toBeInTheDocument();
    expectNoRawKeys();
    await user.click(within(confirm).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Editar' }));
    const edit = await screen.findByRole('dialog', { name: 'Editar pregunta del banco' });
    expect(within(edit).getByRole('group', { name: 'Quién puede encontrarla' })).toBeInTheDocument();
    expect(within(edit).getByLabelText('Solo yo')).toBeChecked();
    expect(within(edit).getByLabelText('Tema')).toHaveAttribute('placeholder', 'De qué trata la pregunta');
    expectNoRawKeys();
  });

  it('when nothing is found, the page says how to save questions', async () => {
    stubFetch({ 'GET /api/bank/items?page=1&pageSize=10': () => jsonResponse(200, bankPage([])) });
    await renderAs(TEACHER_ES, <BankPage />, '/bank');
    expect(await screen.findByTestId('bank-empty')).toHaveTextContent('No se encontraron preguntas.');
    expectNoRawKeys();
  });

  it('save to bank: the dialog and its toast', async () => {
    stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, TEACHER_ES),
      'POST /api/bank/items': () => jsonResponse(201, { ...MINE, visibility: 'school' }),
    });
    const { user } = await renderAs(TEACHER_ES, <SaveToBankButton questionId="q-1" n={2} />);
    await user.click(await screen.findByRole('button', { name: 'Guardar la pregunta 2 en el banco' }));
    const dialog = await screen.findByRole('dialog', { name: 'Guardar la pregunta 2 en el banco de preguntas' });
    await user.click(within(dialog).getByLabelText('Mi escuela'));
    expectNoRawKeys();
    await user.click(within(dialog).getByRole('button', { name: 'Guardar en el banco' }));
    expect(await screen.findByText('La pregunta 2 está en su banco de preguntas (Mi escuela).')).toBeInTheDocument();
    expectNoRawKeys();
  });

  it('add from bank: the dialog, the count chosen and its toast', async () => {
    stubFetch({
      'GET /api/bank/items?page=1&pageSize=10': () => jsonResponse(200, bankPage([THEIRS, MINE])),
      'POST /api/assessments/a-1/questions/from-bank': () => jsonResponse(201, [{ id: 'n1' }, { id: 'n2' }]),
    });
    const { user } = await renderAs(TEACHER_ES, <AddFromBank assessmentId="a-1" room={2} />);
    await user.click(await screen.findByRole('button', { name: 'Agregar del banco' }));
    const dialog = await screen.findByRole('dialog', { name: 'Agregar preguntas del banco' });
    await user.click(await within(dialog).findByLabelText(`Elegir: ${THEIRS.questionText}`));
    expect(within(dialog).getByText('1 elegida')).toBeInTheDocument();
    await user.click(within(dialog).getByLabelText(`Elegir: ${MINE.questionText}`));
    expect(within(dialog).getByText('2 elegidas (espacio para 2 más)')).toBeInTheDocument();
    expectNoRawKeys();
    await user.click(within(dialog).getByRole('button', { name: 'Agregar 2 a la evaluación' }));
    expect(await screen.findByText('Se agregaron 2 preguntas del banco.')).toBeInTheDocument();
    expectNoRawKeys();
  });
});
