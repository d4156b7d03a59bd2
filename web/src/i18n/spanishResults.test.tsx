// The results screens in Spanish (an assessment's results page, All Students, Reports): no raw key,
// and the Spanish each screen says; the teacher's content (titles, questions, answers, names) stays
// as it was written.
import { screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Result, ReviewItem } from '../features/assessments';
import type { AssessmentResults } from '../features/results';
import { AssessmentResultsPage } from '../features/assessmentResults/AssessmentResultsPage';
import { AllStudentsPage, PAGE_SIZE } from '../features/results/AllStudentsPage';
import { ClassResultsPanel } from '../features/results/ClassResultsPanel';
import type { ClassGrid, Report, StudentSummary } from '../features/results';
import { ReportsPage } from '../features/reports/ReportsPage';
import { stubFetch } from '../test/fetchStub';
import { jsonResponse, renderWithProviders } from '../test/test-utils';
import { expectNoRawKeys, inSpanish } from '../test/spanish';

inSpanish();

type Row = AssessmentResults['results'][number];

const row = (over: Partial<Row>): Row => ({
  id: 'r1',
  studentId: 's1',
  classId: 'c1',
  className: 'Álgebra',
  student: { firstName: 'Ada', lastName: 'Adams' },
  percentage: 92.4,
  earnedPoints: 2,
  totalPoints: 2,
  performanceLevel: 'above',
  originalLevel: 'above',
  raisedBy: null,
  raisedAttempt: null,
  attempt: 1,
  submittedAt: '2026-03-05T09:00:00.000Z',
  practice: [],
  answers: [
    { questionId: 'q1', answer: '3/4', correct: true, pending: false },
    { questionId: 'q2', answer: 'the sun', correct: false, pending: true },
  ],
  ...over,
});

const RESULTS: AssessmentResults = {
  assessment: {
    id: 'a1',
    title: 'Fractions Quiz',
    topic: 'Fractions',
    classId: 'c1',
    className: 'Álgebra',
    questionCount: 2,
  },
  summary: { submitted: 2, classSize: 3, averageScore: 72.5, aboveStandard: 1, atStandard: 0, belowStandard: 1 },
  classes: [
    { classId: 'c1', className: 'Álgebra', classSize: 2, submitted: 1, averageScore: 53 },
    { classId: 'c3', className: 'Álgebra P3', classSize: 1, submitted: 1, averageScore: 92 },
  ],
  results: [
    row({}),
    row({
      id: 'r2',
      studentId: 's2',
      classId: 'c3',
      className: 'Álgebra P3',
      student: { firstName: 'Bob', lastName: 'Brown' },
      percentage: 52.6,
      earnedPoints: 1,
      performanceLevel: 'below',
      originalLevel: 'below',
      attempt: 2,
      practice: [{ type: 'support', attempts: 2, bestScore: 85.4 }],
    }),
  ],
  questions: [
    {
      id: 'q1',
      position: 1,
      questionText: 'What is 1/2 + 1/4?',
      questionType: 'multiple_choice',
      options: ['1/4', '3/4', '2/6', '1'],
      correctAnswer: '3/4',
      points: 1,
      answered: 2,
      correctCount: 1,
      awaitingReview: 0,
      shareCorrect: 0.5,
      discrimination: 0.456,
      optionCounts: [
        { option: '1/4', count: 0, shownTo: 1, correct: false },
        { option: '3/4', count: 1, shownTo: 2, correct: true },
        { option: '2/6', count: 1, shownTo: 2, correct: false },
      ],
    },
    {
      id: 'q2',
      position: 2,
      questionText: 'What turns water into vapour?',
      questionType: 'short_answer',
      options: [],
      correctAnswer: 'evaporation',
      points: 1,
      answered: 1,
      correctCount: 0,
      awaitingReview: 1,
      shareCorrect: null,
      discrimination: null,
      optionCounts: [],
    },
  ],
  distribution: [
    { range: '0–49', count: 0 },
    { range: '50–59', count: 1 },
    { range: '90–100', count: 1 },
  ],
  standards: [
    {
      identifier: 'id-nf-1',
      code: '3.NF.A.1',
      uri: 'https://case.example/3.NF.A.1',
      questionCount: 2,
      students: 2,
      averagePercentage: 72.5,
      levels: { below: 1, at: 0, above: 1 },
    },
  ],
};

const PROGRESS = {
  assessmentId: 'a1',
  classId: 'c1',
  questionCount: 2,
  counts: { notStarted: 1, inProgress: 1, submitted: 1 },
  students: [
    {
      studentId: 's1',
      firstName: 'Ada',
      lastName: 'Adams',
      status: 'submitted',
      answered: null,
      startedAt: null,
      lastSavedAt: null,
      submittedAt: '2026-03-05T09:00:00.000Z',
    },
    {
      studentId: 's5',
      firstName: 'Cy',
      lastName: 'Cole',
      status: 'in_progress',
      answered: 1,
      startedAt: '2026-03-05T09:10:00.000Z',
      lastSavedAt: '2026-03-05T09:12:00.000Z',
      submittedAt: null,
    },
    {
      studentId: 's6',
      firstName: 'Di',
      lastName: 'Dunn',
      status: 'not_started',
      answered: null,
      startedAt: null,
      lastSavedAt: null,
      submittedAt: null,
    },
  ],
};

const TO_REVIEW: ReviewItem[] = [
  {
    resultId: 'r1',
    studentId: 's1',
    student: { firstName: 'Ada', lastName: 'Adams' },
    submittedAt: '2026-03-05T09:00:00.000Z',
    questionId: 'q2',
    position: 2,
    questionText: 'What turns water into vapour?',
    correctAnswer: 'evaporation',
    acceptedAnswers: ['vaporisation'],
    points: '1.00',
    answer: 'the sun',
  },
];

const LMS_SCORES = {
  scores: [
    {
      id: 'l1',
      userId: 's1',
      lmsUserId: 'lms-1',
      assessmentId: 'a1',
      lineitemUrl: 'https://lms.example.org/li/1',
      status: 'sent',
      scoreGiven: 2,
      scoreMaximum: 2,
      gradingProgress: 'FullyGraded',
      scoreTimestamp: '2026-03-05T09:00:00.000Z',
      attempts: 1,
      nextAttemptAt: null,
      lastError: null,
      sentAt: '2026-03-05T09:00:01.000Z',
    },
    {
      id: 'l2',
      userId: 's2',
      lmsUserId: 'lms-2',
      assessmentId: 'a1',
      lineitemUrl: 'https://lms.example.org/li/1',
      status: 'pending',
      scoreGiven: 1,
      scoreMaximum: 2,
      gradingProgress: 'FullyGraded',
      scoreTimestamp: '2026-03-05T10:00:00.000Z',
      attempts: 2,
      nextAttemptAt: '2026-03-05T10:30:00.000Z',
      lastError: null,
      sentAt: null,
    },
  ],
};

const RESULT: Result = {
  id: 'r1',
  assessmentId: 'a1',
  studentId: 's1',
  classId: 'c1',
  totalPoints: '2.00',
  earnedPoints: '1.00',
  percentage: '50.00',
  score: 50,
  performanceLevel: 'below',
  originalLevel: 'below',
  raisedBy: null,
  raisedAttempt: null,
  attempt: 1,
  maxAttempts: 1,
  counted: true,
  countedAttempt: 'latest',
  isSubmitted: true,
  submittedAt: '2026-03-05T09:00:00.000Z',
  correctAnswers: 1,
  incorrectAnswers: 0,
  totalQuestions: 2,
  feedback: null,
  pendingReview: 1,
  regradedAt: null,
  className: 'Álgebra',
  assessment: { title: 'Fractions Quiz', description: '' },
  student: { firstName: 'Ada', lastName: 'Adams' },
  questions: [
    {
      questionId: 'q2',
      position: 2,
      questionText: 'What turns water into vapour?',
      questionType: 'short_answer',
      options: [],
      correctAnswer: 'evaporation',
      acceptedAnswers: ['vaporisation'],
      points: '1.00',
      answer: 'the sun',
      correct: false,
      earnedPoints: '0.00',
      pending: true,
      shownOptions: null,
      feedback: null,
    },
  ],
};

function renderResultsPage() {
  return renderWithProviders(
    <Routes>
      <Route path="/assessment-results/:id" element={<AssessmentResultsPage />} />
    </Routes>,
    { route: '/assessment-results/a1' },
  );
}

describe('the results screens in Spanish', () => {
  it("an assessment's results: summary, classes, live progress, to review, LMS scores, table, charts, standards, items", async () => {
    stubFetch({
      'GET /api/assessments/a1/results': () => jsonResponse(200, RESULTS),
      'GET /api/assessments/a1/progress': () => jsonResponse(200, PROGRESS),
      'GET /api/assessments/a1/to-review': () => jsonResponse(200, TO_REVIEW),
      'GET /api/integrations/lti/assessments/a1/scores': () => jsonResponse(200, LMS_SCORES),
      'GET /api/results/r1': () => jsonResponse(200, RESULT),
    });
    const { user } = renderResultsPage();

    const table = await screen.findByRole('region', { name: 'Resultados de los estudiantes' });
    expect(screen.getByRole('heading', { level: 1, name: 'Fractions Quiz' })).toBeInTheDocument();
    expect(screen.getByText(/2 preguntas/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← Volver a Evaluaciones' })).toBeInTheDocument();
    expect(screen.getByTestId('stat-Submitted').parentElement).toHaveTextContent('Entregadas2 / 3');
    expect(screen.getByTestId('stat-Average Score')).toHaveTextContent('73%');
    expect(screen.getAllByText('50% de los resultados')).toHaveLength(2);

    const byClass = screen.getByRole('region', { name: 'Por clase' });
    expect(within(byClass).getByLabelText('Mostrar los estudiantes de')).toHaveDisplayValue('Todas las clases');

    const live = await screen.findByRole('region', { name: 'Progreso en vivo' });
    expect(within(live).getByTestId('progress-counts')).toHaveTextContent('1 en curso · 1 entregadas · 1 sin empezar');
    expect(within(live).getByText('1 de 2 respondidas')).toBeInTheDocument();
    expect(within(live).getByText('Sin empezar')).toBeInTheDocument();

    const toReview = await screen.findByRole('region', { name: 'Por revisar (1)' });
    expect(within(toReview).getByTestId('to-review-item')).toHaveTextContent(
      'Respuesta: the sun · Clave: evaporation (también: vaporisation)',
    );
    expect(within(toReview).getByRole('form', { name: 'Calificar P2 de Ada Adams' })).toBeInTheDocument();

    const lms = await screen.findByRole('region', { name: 'Libro de calificaciones del LMS' });
    expect(within(lms).getByTestId('lms-scores-summary')).toHaveTextContent('1 enviados · 1 en espera · 0 con error');
    expect(within(lms).getByTestId('lms-score-unsent')).toHaveTextContent(
      /Bob Brown: en espera después de 2 intentos · próximo intento/,
    );
    expect(within(lms).getByRole('button', { name: 'Reenviar ahora' })).toBeInTheDocument();

    for (const header of [
      'Estudiante',
      'Clase',
      'Puntaje',
      'Nivel',
      'Puntos',
      'Fecha de entrega',
      'Intento',
      'Práctica',
    ])
      expect(within(table).getByRole('columnheader', { name: header })).toBeInTheDocument();
    const bob = within(table).getByRole('row', { name: /Bob Brown/ });
    expect(bob).toHaveTextContent('Intento 2 (cuenta)');
    expect(bob).toHaveTextContent('Apoyo: 2 intentos, mejor 85%');
    expect(within(bob).getByText('Por debajo del estándar')).toBeInTheDocument();
    expect(within(bob).getByRole('link', { name: 'Abrir la práctica de Bob Brown' })).toHaveTextContent(
      'Abrir la práctica',
    );

    expect(screen.getByRole('img', { name: /^Distribución de puntajes\. / })).toBeInTheDocument();
    expect(
      screen.getByRole('img', { name: 'Dificultad por pregunta (porcentaje de aciertos). P1: 50%, P2: —' }),
    ).toBeInTheDocument();
    expect(screen.getAllByText('Mostrar los datos')).toHaveLength(2);

    const standards = screen.getByRole('region', { name: 'Estándares' });
    expect(within(standards).getByRole('columnheader', { name: 'Preguntas alineadas' })).toBeInTheDocument();
    expect(within(standards).getByRole('columnheader', { name: 'Por encima del estándar' })).toBeInTheDocument();

    const [items] = screen.getAllByRole('region', { name: 'Estadísticas por pregunta' });
    expect(within(items!).getByText('Exportar el análisis por pregunta (CSV)')).toHaveAttribute(
      'href',
      '/api/assessments/a1/item-analysis',
    );
    expect(screen.getByTestId('item-1')).toHaveTextContent('1/4: 0 (0%) · 0 de 1 que la vieron');
    expect(screen.getByTestId('item-1')).toHaveTextContent('Respuesta correcta');
    expect(screen.getByTestId('item-2-awaiting')).toHaveTextContent('1 pendiente de revisión');
    expectNoRawKeys();

    // A student's answers.
    await user.click(within(bob).getByRole('button', { name: 'Mostrar las respuestas de Bob Brown' }));
    const answers = document.getElementById('answers-r2')!;
    expect(within(answers).getByText('✓ Correcta')).toBeInTheDocument();
    expect(within(answers).getByText('Pendiente de revisión')).toBeInTheDocument();
    expectNoRawKeys();

    // The retake's confirmation.
    await user.click(within(bob).getByRole('button', { name: 'Repetir para Bob Brown' }));
    const dialog = await screen.findByRole('dialog', { name: '¿Permitir repetir la evaluación?' });
    expect(dialog).toHaveTextContent('Bob Brown vuelve a presentar la evaluación desde el principio.');
    expect(within(dialog).getByRole('button', { name: 'Permitir repetir' })).toBeInTheDocument();
    expectNoRawKeys();
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));

    // Grading by hand, with the points' check.
    const ada = within(table).getByRole('row', { name: /Ada Adams/ });
    await user.click(within(ada).getByRole('button', { name: 'Calificar a Ada Adams' }));
    const panel = await screen.findByTestId('grade-r1');
    expect(panel).toHaveTextContent('Puntaje actual: 1.00 / 2.00 puntos (50%)');
    const form = within(panel).getByRole('form', { name: 'Calificar P2 de Ada Adams' });
    expect(within(form).getByLabelText('Comentarios para el estudiante (opcional)')).toBeInTheDocument();
    const points = within(form).getByLabelText('Puntos (de 1.00)');
    await user.clear(points);
    await user.type(points, '3');
    await user.click(within(form).getByRole('button', { name: 'Guardar calificación' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Los puntos deben estar entre 0 y 1.00');
    expect(within(panel).getByRole('form', { name: 'Comentarios sobre todo el resultado' })).toBeInTheDocument();
    expect(within(ada).getByRole('button', { name: 'Cerrar la calificación de Ada Adams' })).toHaveTextContent(
      'Cerrar',
    );
    expectNoRawKeys();
  });

  it("an assessment's results: not found, and no submission yet", async () => {
    stubFetch({});
    renderResultsPage();
    expect(await screen.findByRole('heading', { name: 'No se encontró la evaluación' })).toBeInTheDocument();
    expect(screen.getByText('Esta evaluación no existe o usted no tiene acceso a ella.')).toBeInTheDocument();
    expectNoRawKeys();
  });

  it("an assessment's results with no submission and no aligned standard", async () => {
    stubFetch({
      'GET /api/assessments/a1/results': () =>
        jsonResponse(200, {
          ...RESULTS,
          summary: {
            submitted: 0,
            classSize: 3,
            averageScore: null,
            aboveStandard: 0,
            atStandard: 0,
            belowStandard: 0,
          },
          classes: [RESULTS.classes[0]],
          results: [],
          standards: [],
        }),
    });
    renderResultsPage();
    expect(await screen.findByText('Todavía no hay entregas.')).toBeInTheDocument();
    expect(screen.getByText('Todavía no hay intentos')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'página de edición' })).toHaveAttribute('href', '/assessment-edit/a1');
    expectNoRawKeys();
  });

  it('All Students: stats, cards with their averages and recent results, paging, search with no match, By Class', async () => {
    const card = (id: string, firstName: string, extra: Partial<StudentSummary>): StudentSummary => ({
      id,
      firstName,
      lastName: 'Doe',
      email: `${firstName.toLowerCase()}@example.com`,
      average: null,
      band: null,
      resultCount: 0,
      classes: [{ id: 'c1', name: 'Biología', period: '4' }],
      results: [],
      ...extra,
    });
    const result = (n: number, percentage: number, performanceLevel: 'above' | 'at' | 'below') => ({
      resultId: `r${n}`,
      assessmentId: `a${n}`,
      title: `Quiz ${n}`,
      percentage,
      performanceLevel,
      originalLevel: performanceLevel,
      raisedBy: null,
      raisedAttempt: null,
      submittedAt: '2026-03-06T10:00:00.000Z',
    });
    const students = [
      card('s1', 'Ada', {
        average: 84.6,
        band: 'above',
        resultCount: 5,
        results: [result(1, 92.4, 'above'), result(2, 81, 'at'), result(3, 79.5, 'below'), result(4, 10, 'below')],
      }),
      card('s2', 'Bob', { average: 61.2, band: 'at', resultCount: 1, results: [result(5, 61.2, 'below')] }),
      card('s4', 'Dee', {}),
    ];
    const overview = (list: StudentSummary[], total = list.length) => ({
      stats: { totalStudents: 40, aboveStandard: 12, atStandard: 9, belowStandard: 7 },
      total,
      students: list,
      classes: [
        { id: 'c1', name: 'Biología', period: '4', subject: 'Ciencias' },
        { id: 'c2', name: 'Química', period: null, subject: 'Ciencias' },
      ],
    });
    stubFetch({
      [`GET /api/dashboard/students?limit=${PAGE_SIZE}`]: () => jsonResponse(200, overview(students, 30)),
      [`GET /api/dashboard/students?search=zz&limit=${PAGE_SIZE}`]: () => jsonResponse(200, overview([])),
      [`GET /api/dashboard/students?classId=c1&limit=${PAGE_SIZE}`]: () => jsonResponse(200, overview([])),
    });
    const { user } = renderWithProviders(<AllStudentsPage />);
    expect(await screen.findByRole('heading', { name: 'Todos los estudiantes' })).toBeInTheDocument();
    expect(await screen.findByTestId('stat-Total Students')).toHaveTextContent('40');
    expect(screen.getByText('Total de estudiantes')).toBeInTheDocument();
    expect(screen.getByText('estudiantes con promedio de 80% o más')).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Todos los estudiantes', 'Por clase']);

    const ada = screen.getByRole('article', { name: 'Ada Doe' });
    expect(within(ada).getByTestId('student-average')).toHaveTextContent('85%');
    expect(within(ada).getByTestId('student-average-band')).toHaveTextContent('Por encima (promedio de 80% o más)');
    expect(within(ada).getByText('5 evaluaciones · Biología (Periodo 4)')).toBeInTheDocument();
    expect(within(ada).getByRole('list', { name: 'Resultados recientes de Ada Doe' })).toBeInTheDocument();
    expect(within(ada).getByText('+2 más')).toBeInTheDocument();
    expect(within(ada).getByRole('button', { name: /^Estándares ?de Ada Doe$/ })).toBeInTheDocument();
    const dee = screen.getByRole('article', { name: 'Dee Doe' });
    expect(within(dee).getByText('Todavía no hay resultados')).toBeInTheDocument();
    const pages = screen.getByRole('navigation', { name: 'Páginas de estudiantes' });
    expect(pages).toHaveTextContent('Mostrando 1–24 de 30');
    expect(within(pages).getByRole('button', { name: 'Siguiente' })).toBeEnabled();
    expectNoRawKeys();

    await user.type(screen.getByRole('searchbox', { name: 'Buscar estudiantes por nombre' }), 'zz');
    expect(await screen.findByText('Ningún estudiante coincide con "zz".')).toBeInTheDocument();
    expectNoRawKeys();

    await user.click(screen.getByRole('tab', { name: 'Por clase' }));
    expect(await screen.findByText('Todavía no hay estudiantes en esta clase.')).toBeInTheDocument();
    expectNoRawKeys();
  });

  it("a class's results panel: the share of each level and the student progress grid", async () => {
    const grid: ClassGrid = {
      classId: 'c1',
      className: 'Biología',
      students: [
        { id: 's1', firstName: 'Ada', lastName: 'Byron' },
        { id: 's2', firstName: 'Alan', lastName: 'Turing' },
      ],
      assessments: [
        { id: 'a1', title: 'Cells', createdAt: '2026-03-05T10:00:00.000Z' },
        { id: 'a2', title: 'Genetics', createdAt: '2026-03-06T10:00:00.000Z' },
      ],
      cells: [
        {
          studentId: 's1',
          assessmentId: 'a1',
          resultId: 'r1',
          percentage: 84.6,
          performanceLevel: 'at',
          originalLevel: 'at',
          raisedBy: null,
          raisedAttempt: null,
        },
      ],
      inProgress: [{ studentId: 's2', assessmentId: 'a1', answered: 3, questionCount: 8 }],
    };
    grid.cells.push({
      studentId: 's2',
      assessmentId: 'a2',
      resultId: 'r2',
      percentage: 50,
      performanceLevel: 'at',
      originalLevel: 'below',
      raisedBy: 'practice',
      raisedAttempt: 2,
    });
    stubFetch({
      'GET /api/classes/c1/grid': () => jsonResponse(200, grid),
      'GET /api/classes/c1/results': () => jsonResponse(200, []),
    });
    renderWithProviders(<ClassResultsPanel classId="c1" showBands />);
    expect(await screen.findByRole('heading', { name: 'Resultados de la clase' })).toBeInTheDocument();
    expect(await screen.findByText('0 resultados entregados')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Resultados por nivel de desempeño' })).toHaveTextContent(
      'Por encima del estándar0%',
    );
    const table = await screen.findByRole('table');
    expect(screen.getByRole('list', { name: 'Leyenda' })).toHaveTextContent('Subió de nivel con la práctica');
    expect(within(table).getByRole('columnheader', { name: 'Estudiante' })).toBeInTheDocument();
    expect(within(table).getByRole('row', { name: /Ada Byron/ })).toHaveTextContent('85%, En el estándar');
    expect(within(table).getByRole('row', { name: /Alan Turing/ })).toHaveTextContent('En curso3 de 8 respondidas');
    expect(within(table).getAllByText('Sin resultado')).toHaveLength(1);
    const raised = within(table)
      .getByRole('row', { name: /Alan Turing/ })
      .querySelector('[data-raised="practice"]');
    expect(raised).toHaveAttribute('title', 'En el estándar, subió a En el estándar con la práctica (2.º intento)');
    expectNoRawKeys();
  });

  it('Reports: filters and their check, the report with its summary, charts and table, recent results, View All', async () => {
    const recent = (i: number, score: number, level: 'above' | 'at' | 'below') => ({
      id: `r${i}`,
      studentId: `s${i}`,
      assessmentId: 'a1',
      classId: 'c1',
      className: 'Álgebra',
      score,
      percentage: score,
      earnedPoints: score,
      totalPoints: 100,
      performanceLevel: level,
      originalLevel: level,
      raisedBy: null,
      raisedAttempt: null,
      attempt: 1,
      submittedAt: '2026-03-05T10:00:00.000Z',
      student: { firstName: 'Student', lastName: `${i}` },
      assessment: { title: 'Fractions Quiz', topic: 'Fractions', classId: 'c1' },
    });
    const report = (over: Partial<Report> = {}): Report => ({
      generatedAt: '2026-03-06T10:00:00.000Z',
      timeframe: 'month',
      type: 'performance',
      title: 'Performance Report, last 30 days',
      classes: [{ id: 'c1', name: 'Álgebra', period: '2' }],
      levelsOverTime: [
        { period: '2026-02-23', above: 2, at: 1, below: 2 },
        { period: '2026-03-02', above: 3, at: 3, below: 1 },
      ],
      summary: {
        totalResults: 12,
        studentsAssessed: 9,
        assessmentsGiven: 2,
        averageScore: 71.6,
        aboveStandard: 5,
        atStandard: 4,
        belowStandard: 3,
        abovePercent: 42,
        atPercent: 33,
        belowPercent: 25,
      },
      columns: [
        { key: 'assessment', label: 'Assessment' },
        { key: 'class', label: 'Class' },
        { key: 'results', label: 'Results' },
        { key: 'average', label: 'Average %' },
        { key: 'above', label: 'Above Standard' },
        { key: 'at', label: 'At Standard' },
        { key: 'below', label: 'Below Standard' },
      ],
      rows: [{ assessment: 'Fractions Quiz', class: 'Álgebra', results: 12, average: 72, above: 5, at: 4, below: 3 }],
      totalRows: 1,
      recentResults: [recent(1, 65, 'below'), ...Array.from({ length: 9 }, (_, i) => recent(i + 2, 85, 'at'))],
      ...over,
    });
    const detailed = report({
      type: 'detailed',
      title: 'Detailed Results Report, last 30 days',
      columns: [
        { key: 'student', label: 'Student' },
        { key: 'score', label: 'Score %' },
        { key: 'level', label: 'Performance Level' },
        { key: 'originalLevel', label: 'Level at Submission' },
      ],
      rows: [{ student: 'Student 1', score: 65, level: 'Below Standard', originalLevel: 'Below Standard' }],
      totalRows: 1500,
    });
    stubFetch({
      'GET /api/classes': () =>
        jsonResponse(200, [
          {
            id: 'c1',
            name: 'Álgebra',
            subject: 'Matemáticas',
            period: '2',
            joinCode: 'ABCDEF',
            createdAt: '2026-01-05T10:00:00.000Z',
            teacherId: 't1',
            teacherName: 'Ada Lovelace',
            studentCount: 3,
            assessmentCount: 1,
            belowStandard: 0,
            atStandard: 0,
            aboveStandard: 0,
            archived: false,
          },
        ]),
      'GET /api/reports?timeframe=month&type=performance': () => jsonResponse(200, report()),
      'GET /api/reports?timeframe=month&type=detailed': () => jsonResponse(200, detailed),
    });
    const { user } = renderWithProviders(<ReportsPage />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Informes' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Informe de desempeño, últimos 30 días' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Páginas relacionadas' })).toHaveTextContent('Panel');
    expect(screen.getByRole('form', { name: 'Filtros del informe' })).toBeInTheDocument();
    expect(await screen.findByRole('checkbox', { name: 'Álgebra - Periodo 2' })).not.toBeChecked();
    expect(screen.getByLabelText('Período')).toHaveDisplayValue('El mes pasado');
    expect(screen.getByLabelText('Tipo de informe')).toHaveDisplayValue('Resumen de desempeño');
    expect(screen.getByText(/Resumen de desempeño · El mes pasado · Álgebra · Generado el/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Descargar CSV' })).toHaveAttribute(
      'href',
      '/api/reports/export?timeframe=month&type=performance&format=csv',
    );
    expect(screen.getByTestId('summary-Average Score').parentElement).toHaveTextContent('Puntaje promedio72%');
    expect(screen.getByTestId('summary-Above Standard').parentElement).toHaveTextContent(
      'Por encima del estándar542% de los resultados',
    );
    expect(
      screen.getByRole('img', { name: /^Resultados por nivel de desempeño\. Por encima del estándar: 5 \(42%\)/ }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('img', { name: /^Niveles a lo largo del tiempo\. 23 feb: 2 Por encima del estándar/ }),
    ).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Informe de desempeño, últimos 30 días' });
    expect(within(table).getByRole('columnheader', { name: 'Promedio %' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Por debajo del estándar' })).toBeInTheDocument();
    const recentRegion = screen.getByRole('region', { name: 'Resultados recientes de las evaluaciones' });
    expect(within(recentRegion).getByRole('columnheader', { name: 'Evaluación' })).toBeInTheDocument();
    expect(within(recentRegion).getAllByText('En el estándar')).toHaveLength(9);
    expectNoRawKeys();

    // View All: every result, from the detailed report; its table's words in Spanish too.
    await user.click(within(recentRegion).getByRole('button', { name: 'Ver todos los resultados (12)' }));
    const all = await screen.findByRole('region', { name: 'Todos los resultados (12)' });
    const allTable = await within(all).findByRole('table', { name: 'Todos los resultados de las evaluaciones' });
    expect(within(allTable).getByRole('columnheader', { name: 'Nivel al entregar' })).toBeInTheDocument();
    expect(within(allTable).getAllByText('Por debajo del estándar')).toHaveLength(2);
    expect(within(all).getByRole('note')).toHaveTextContent(
      'Se muestran las primeras 1 de 1500 filas. Descargue el CSV o el PDF para verlas todas.',
    );
    expect(within(all).getByRole('button', { name: 'Mostrar solo los recientes' })).toBeInTheDocument();
    expectNoRawKeys();

    // The filters' check.
    await user.click(screen.getByRole('checkbox', { name: 'Todas las clases' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Elija Todas las clases o al menos una clase.');
    expect(screen.getByRole('button', { name: 'Generar informe' })).toBeDisabled();
    expectNoRawKeys();
  });
});
