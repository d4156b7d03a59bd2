// The teacher's assessment screens in Spanish: the list, Create Assessment (its validation and hints),
// the QTI import, the edit page with the question editor, the preview page with its modal and dialogs
// (assign, copy, AI recommendation), a raised result level, and the LTI deep-linking page. No raw key
// on any of them, and the Spanish each one is known to say.
import { screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Assessment, Class } from '../api/generated/endpoints';
import { makeStore } from '../app/store';
import { AssessmentEditPage } from '../features/assessments/AssessmentEditPage';
import { AssessmentPreviewPage } from '../features/assessments/AssessmentPreviewPage';
import { AssessmentsPage } from '../features/assessments/AssessmentsPage';
import type { Question } from '../features/assessments/assessmentsApi';
import { ResultLevel } from '../features/assessments/ResultLevel';
import { MESSAGES } from '../features/assessments/assessmentSchemas';
import * as generation from '../features/assessments/generationText';
import { keyOfText } from '../features/assessments/texts';
import english from '../locales/en/assessments.json';
import { DeepLinkPage } from '../features/lti/DeepLinkPage';
import { authApi } from '../session/authApi';
import { TEACHER, stubFetch, type Route as StubRoute } from '../test/fetchStub';
import { expectNoRawKeys, inSpanish } from '../test/spanish';
import { jsonResponse, renderWithProviders } from '../test/test-utils';

const ME = { ...TEACHER, id: 'es-teacher', locale: 'es' as const };

const klass = (id: string, name: string, period: string): Class => ({
  id,
  name,
  subject: 'Ciencias',
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
  title: 'La célula',
  description: 'Repaso de la unidad 2',
  topic: 'Células',
  standard: '',
  dueDate: '2026-03-10T15:00:00.000Z',
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
  className: 'Biología',
  subject: 'Ciencias',
  questionCount: 2,
  responseCount: 0,
  assignedCount: 0,
  contentToAssess: 'Las células…',
  questionType: 'multiple_choice',
  numberOfQuestions: 2,
  generationStatus: 'ready',
  generationProvider: 'offline',
  generationError: null,
  standards: [],
  canEdit: true,
};
const ASSIGNED: Assessment = {
  ...ASSESSMENT,
  id: 'a2',
  title: 'Fotosíntesis',
  isAssigned: true,
  status: 'assigned',
  assignedTo: [{ classId: 'c1', className: 'Biología', wholeClass: false, studentIds: ['s1', 's2'] }],
  responseCount: 1,
  assignedCount: 2,
  questionCount: 1,
};
const CLOSED: Assessment = { ...ASSESSMENT, id: 'a3', title: 'Ecosistemas', isActive: false, status: 'closed' };

const QUESTIONS: Question[] = [
  {
    id: 'q1',
    assessmentId: 'a1',
    questionText: '¿Qué orgánulo produce energía?',
    questionType: 'multiple_choice',
    options: ['Mitocondria', 'Núcleo', 'Ribosoma', 'Vacuola'],
    correctAnswer: 'Mitocondria',
    points: '1.00',
    position: 1,
  },
  {
    id: 'q2',
    assessmentId: 'a1',
    questionText: 'Nombre la capa que rodea la célula.',
    questionType: 'short_answer',
    options: [],
    correctAnswer: 'membrana',
    acceptedAnswers: ['membrana celular'],
    points: '2.5',
    position: 2,
  },
];

const member = (id: string, firstName: string) => ({
  id: `m-${id}`,
  joinedAt: '2026-03-01T10:00:00.000Z',
  student: { id, firstName, lastName: 'López', email: null, profileImageUrl: null },
});

inSpanish();

function stub(extra: Record<string, StubRoute> = {}) {
  return stubFetch({
    'GET /api/auth/user': () => jsonResponse(200, ME),
    'GET /api/assessments': () => jsonResponse(200, [ASSESSMENT, ASSIGNED, CLOSED]),
    'GET /api/assessments/a1': () => jsonResponse(200, ASSESSMENT),
    'GET /api/assessments/a1/questions': () => jsonResponse(200, QUESTIONS),
    'GET /api/classes': () => jsonResponse(200, [klass('c1', 'Biología', '1'), klass('c3', 'Química', '3')]),
    'GET /api/classes/c1/students': () => jsonResponse(200, [member('s1', 'Ana'), member('s2', 'Beto')]),
    'GET /api/standards/frameworks': () => jsonResponse(200, []),
    ...extra,
  });
}

beforeEach(() => {
  stub();
});

async function renderAt(path: string, route: string, element: ReactElement) {
  const store = makeStore();
  await store.dispatch(authApi.util.upsertQueryData('getCurrentUser', undefined, ME));
  return renderWithProviders(
    <Routes>
      <Route path={path} element={element} />
    </Routes>,
    { store, route },
  );
}

describe('the assessment screens in Spanish', () => {
  it('the assessments list: cards, lifecycle, delete confirm and the inactive view', async () => {
    const { user } = await renderAt('/assessments', '/assessments', <AssessmentsPage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Evaluaciones' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Crear evaluación' })).toBeInTheDocument();
    const card = screen.getByRole('article', { name: 'Fotosíntesis' });
    expect(within(card).getByTestId('lifecycle-status')).toHaveTextContent('Asignada a Biología (2 estudiantes)');
    expect(
      within(card).getByText('Los estudiantes a quienes está asignada ya pueden presentarla.'),
    ).toBeInTheDocument();
    expect(within(card).getByTestId('responses-badge')).toHaveTextContent('Respuestas 1 / 2');
    expect(within(card).getByText('1 pregunta')).toBeInTheDocument();
    expect(within(card).getByText('Vencida')).toBeInTheDocument();
    // Dates in the locale: day first.
    expect(within(card).getByText('1/3/2026')).toBeInTheDocument();
    const draft = screen.getByRole('article', { name: 'La célula' });
    expect(within(draft).getByTestId('lifecycle-status')).toHaveTextContent('Borrador');
    expect(within(draft).getByRole('link', { name: 'Resultados de La célula' })).toBeInTheDocument();
    expectNoRawKeys();

    await user.click(within(draft).getByRole('button', { name: 'Eliminar La célula' }));
    const dialog = await screen.findByRole('dialog', { name: '¿Eliminar La célula?' });
    expect(within(dialog).getByText(/Esta acción no se puede deshacer/)).toBeInTheDocument();
    expectNoRawKeys();
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));

    await user.click(screen.getByRole('button', { name: 'Ver solo inactivas' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Evaluaciones inactivas' })).toBeInTheDocument();
    const closed = screen.getByRole('article', { name: 'Ecosistemas' });
    expect(within(closed).getByTestId('lifecycle-status')).toHaveTextContent('Cerrada');
    expect(within(closed).getByText('Inactiva')).toBeInTheDocument();
    expectNoRawKeys();
  });

  it('Create Assessment: labels, validation messages and the short-lesson hint', async () => {
    const { user } = await renderAt('/assessments', '/assessments', <AssessmentsPage />);
    await user.click(await screen.findByRole('button', { name: 'Crear evaluación' }));
    const dialog = await screen.findByRole('dialog', { name: 'Crear evaluación' });
    expect(within(dialog).getByLabelText('Contenido que se evaluará')).toBeInTheDocument();
    expect(within(dialog).getByRole('option', { name: 'Opción múltiple' })).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Número de preguntas'));
    await user.type(within(dialog).getByLabelText('Número de preguntas'), '0');
    await user.click(within(dialog).getByRole('button', { name: 'Crear evaluación' }));
    expect(await within(dialog).findByText('El título es obligatorio')).toBeInTheDocument();
    expect(within(dialog).getByText('El contenido que se evaluará es obligatorio')).toBeInTheDocument();
    expect(within(dialog).getByText('Debe tener al menos 1 pregunta')).toBeInTheDocument();
    expectNoRawKeys();

    await user.type(within(dialog).getByLabelText('Contenido que se evaluará'), 'La célula animal');
    expect(await within(dialog).findByText(/^Este texto es corto \(3 palabras\)/)).toBeInTheDocument();
    expectNoRawKeys();
  });

  it('the QTI import dialog: its texts and the missing-file message', async () => {
    const { user } = await renderAt('/assessments', '/assessments', <AssessmentsPage />);
    await user.click(await screen.findByRole('button', { name: 'Importar paquete QTI…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Importar paquete QTI' });
    expect(within(dialog).getByLabelText('Paquete QTI')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Importar' }));
    expect(await within(dialog).findByText('Elija un paquete QTI (.zip) o un solo ítem (.xml)')).toBeInTheDocument();
    expectNoRawKeys();
  });

  it('the edit page: details form with its validation, the questions and the question editor', async () => {
    const { user } = await renderAt('/assessment-edit/:id', '/assessment-edit/a1', <AssessmentEditPage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Editar evaluación' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Detalles de la evaluación' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← Volver a la vista previa' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Preguntas (2)' })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: '1 (sin nuevo intento)' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Mezclar las preguntas' })).toBeInTheDocument();
    const second = screen.getByRole('region', { name: 'Pregunta 2' });
    expect(
      within(second).getByText('Respuesta correcta: membrana (también se acepta: membrana celular)'),
    ).toBeInTheDocument();
    expect(within(second).getByText('2.5 puntos')).toBeInTheDocument();
    expect(within(second).getByText('Respuesta corta')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Subir la pregunta 2' })).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Tema'));
    await user.type(screen.getByLabelText('Límite de tiempo (minutos)'), '5000');
    await user.click(screen.getByRole('button', { name: 'Guardar detalles' }));
    expect(await screen.findByText('El tema es obligatorio')).toBeInTheDocument();
    expect(screen.getByText('El límite de tiempo debe ser de 1 a 1440 minutos (24 horas)')).toBeInTheDocument();
    expectNoRawKeys();

    await user.click(screen.getByRole('button', { name: 'Editar la pregunta 1' }));
    const editor = await screen.findByRole('form', { name: 'Guardar pregunta' });
    expect(within(editor).getByLabelText('Texto de la pregunta')).toBeInTheDocument();
    expect(within(editor).getByRole('textbox', { name: 'Opción B' })).toHaveValue('Núcleo');
    expect(within(editor).getByRole('radio', { name: 'La opción A es la correcta' })).toBeChecked();
    await user.clear(within(editor).getByLabelText('Texto de la pregunta'));
    await user.clear(within(editor).getByRole('textbox', { name: 'Opción D' }));
    await user.click(within(editor).getByRole('button', { name: 'Guardar pregunta' }));
    expect(await within(editor).findByText('El texto de la pregunta es obligatorio')).toBeInTheDocument();
    expect(
      within(editor).getByText('Las preguntas de opción múltiple necesitan 4 opciones (de la A a la D)'),
    ).toBeInTheDocument();
    expectNoRawKeys();

    await user.click(within(editor).getByRole('button', { name: 'Cancelar' }));
    await user.click(screen.getByRole('button', { name: 'Eliminar la pregunta 2' }));
    expect(await screen.findByRole('dialog', { name: '¿Eliminar la pregunta 2?' })).toBeInTheDocument();
    expectNoRawKeys();
  });

  it('the preview page: its buttons, the preview modal, and the assign, copy and recommendation dialogs', async () => {
    stub({
      'GET /api/assessments/a1/recommendations/support': () =>
        jsonResponse(200, {
          type: 'support',
          text: 'Support recommendations: La célula',
          provider: 'offline',
          generatedAt: '2026-03-02T10:00:00.000Z',
          summary: {
            total: 1,
            below: 1,
            at: 0,
            raised: 0,
            above: 0,
            averagePercent: 50,
            mostMissed: [],
            mostCorrect: [],
          },
        }),
    });
    const { user } = await renderAt('/assessment-preview/:id', '/assessment-preview/a1', <AssessmentPreviewPage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'La célula' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Asignar a los estudiantes' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Editar preguntas' })).toBeInTheDocument();
    expect(screen.getByText(/^Creada el 1\/3\/2026 · Biología · Preguntas basadas en su texto$/)).toBeInTheDocument();
    expect(screen.getByTestId('lifecycle-hint')).toHaveTextContent('Todavía no está asignada');
    expect(await screen.findByText('2 preguntas')).toBeInTheDocument();
    expectNoRawKeys();

    await user.click(screen.getByRole('button', { name: 'Vista previa' }));
    const modal = await screen.findByRole('dialog', { name: /La célula/ });
    expect(within(modal).getByRole('region', { name: 'Preguntas' })).toBeInTheDocument();
    expect(within(modal).getByRole('button', { name: 'Desactivar' })).toBeInTheDocument();
    expectNoRawKeys();
    // The header's × and the footer's button are both 'Cerrar'.
    expect(within(modal).getAllByRole('button', { name: 'Cerrar' })).toHaveLength(2);
    await user.click(within(modal).getAllByRole('button', { name: 'Cerrar' })[1]!);

    await user.click(screen.getByRole('button', { name: 'Asignar a clases o estudiantes…' }));
    const assign = await screen.findByRole('dialog', { name: 'Asignar a clases o estudiantes' });
    expect(await within(assign).findByRole('checkbox', { name: /^Biología.* \(su clase\)$/ })).toBeChecked();
    await user.click(within(assign).getByRole('radio', { name: 'Solo los estudiantes que yo elija' }));
    expect(await within(assign).findByRole('group', { name: /^Estudiantes de Biología/ })).toBeInTheDocument();
    expectNoRawKeys();
    await user.click(within(assign).getByRole('button', { name: 'Cancelar' }));

    await user.click(screen.getByRole('button', { name: 'Copiar a una clase…' }));
    const copy = await screen.findByRole('dialog', { name: 'Copiar a una clase' });
    expect(within(copy).getByLabelText('Título')).toHaveValue('La célula');
    expect(within(copy).getByRole('button', { name: 'Copiar' })).toBeInTheDocument();
    expectNoRawKeys();
    await user.click(within(copy).getByRole('button', { name: 'Cancelar' }));

    await user.click(screen.getByRole('button', { name: 'Apoyo' }));
    const recommendation = await screen.findByRole('dialog', { name: /Recomendación de apoyo/ });
    expect(await within(recommendation).findByText(/Generada localmente a partir de su texto/)).toHaveTextContent(
      /2\/3\/2026/,
    );
    expect(within(recommendation).getByRole('button', { name: 'Abrir en una pestaña nueva' })).toBeEnabled();
    expectNoRawKeys();
  });

  it('a result level raised by practice', async () => {
    await renderAt(
      '/',
      '/',
      <ResultLevel
        result={{ performanceLevel: 'at', originalLevel: 'below', raisedBy: 'practice', raisedAttempt: 2 }}
      />,
    );
    const note = await screen.findByTestId('raised-note');
    expect(note).toHaveTextContent('subió a En el estándar con la práctica (2.º intento)');
    expect(note.parentElement).toHaveAttribute(
      'title',
      'En el estándar (subió con la práctica desde Por debajo del estándar, 2.º intento)',
    );
    expectNoRawKeys();
  });

  it('the LTI deep-linking page', async () => {
    const id = '0b7e7b1e-3333-4b4b-8b8b-000000000031';
    stub({
      [`GET /api/lti/deep-linking/${id}`]: () =>
        jsonResponse(200, {
          id,
          classId: 'c1',
          platform: 'https://canvas.instructure.com',
          assessments: [
            { id: 'a1', title: 'La célula', totalPoints: 3.5, inLinkedClass: true },
            { id: 'a2', title: 'En preparación', totalPoints: 0, inLinkedClass: false },
          ],
        }),
    });
    await renderAt('/lti/deep-linking/:id', `/lti/deep-linking/${id}`, <DeepLinkPage />);
    expect(
      await screen.findByRole('heading', { name: 'Agregue una evaluación de Checkpoint a su curso' }),
    ).toBeInTheDocument();
    expect(screen.getByText('3.5 puntos')).toBeInTheDocument();
    expect(screen.getByText('Todavía no hay preguntas')).toBeInTheDocument();
    expect(screen.getByText('La clase de este curso')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Agregar En preparación' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Crear una evaluación' })).toBeInTheDocument();
    expectNoRawKeys();
  });

  it("every English message of the feature's forms and generation texts is its key's English text", () => {
    const textOf = (key: string) =>
      key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], english);
    const texts = [
      ...Object.values(MESSAGES),
      generation.CREATE_FAILED,
      generation.QUOTA_EXCEEDED,
      generation.CREATED,
      generation.CREATED_FROM_TEXT,
      generation.ENGLISH_ONLY,
      ...Object.values(generation.SOURCE_LABELS),
      ...Object.values(generation.SUCCESS_HEADERS),
      ...Object.values(generation.WRITING_LABELS),
    ];
    for (const text of texts) expect(textOf(keyOfText(text) ?? 'missing'), text).toBe(text);
  });
});
