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
import { CommonAssessmentsPage } from '../features/commonAssessments/CommonAssessmentsPage';
import { CommonReport } from '../features/commonAssessments/CommonReport';
import { DistrictAssessments } from '../features/commonAssessments/DistrictAssessments';
import type { CommonAssessment, CommonAssessmentReport } from '../features/commonAssessments/commonAssessmentsApi';
import { StudentDashboard } from '../features/dashboard/StudentDashboard';
import { ClassMasterySection } from '../features/standards/ClassMasterySection';
import { StandardsPage } from '../features/standards/StandardsPage';
import { StandardsPicker } from '../features/standards/StandardsPicker';
import type { DistrictStandard, Framework, StandardRef } from '../features/standards/standardsApi';
import { authApi } from '../session/authApi';
import { STUDENT, stubFetch, TEACHER } from '../test/fetchStub';
import { expectNoRawKeys, inSpanish } from '../test/spanish';
import { jsonResponse, renderWithProviders } from '../test/test-utils';

const TEACHER_ES = { ...TEACHER, id: 'es-teacher', locale: 'es' as const, accountType: 'district' as const };
const ADMIN_ES = { ...TEACHER_ES, id: 'es-admin', role: 'admin' as const };
const STUDENT_ES = { ...STUDENT, id: 'es-student', locale: 'es' as const };

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

const FRAMEWORK: Framework = {
  id: '44444444-4444-4444-8444-444444444444',
  title: 'Matemáticas del estado',
  documentIdentifier: 'doc-1',
  creator: 'Estado de prueba',
  version: '1.0',
  uri: 'https://case.example.org/doc-1',
  subjects: ['Mathematics'],
  itemCount: 1200,
  scope: 'platform',
  importedAt: '2026-03-05T10:00:00.000Z',
  updatedAt: '2026-03-05T10:00:00.000Z',
};
const DISTRICT: DistrictStandard[] = [
  {
    identifier: 'item-1',
    code: '6.RP.A.1',
    suppressed: false,
    students: 7,
    score: 82,
    level: 'at',
    below: 2,
    at: 3,
    above: 2,
    schools: [
      {
        schoolId: 'sch-n',
        schoolName: 'Escuela Norte',
        suppressed: false,
        students: 7,
        score: 82,
        level: 'at',
        below: 2,
        at: 3,
        above: 2,
      },
    ],
    classes: [
      {
        classId: '55555555-5555-4555-8555-555555555555',
        className: 'Matemáticas 6A',
        period: '2',
        teacherName: 'Ada Lovelace',
        schoolId: 'sch-n',
        schoolName: 'Escuela Norte',
        suppressed: true,
      },
    ],
  },
];
const trend = (scores: number[]) =>
  scores.map((score, i) => ({
    assessmentId: `7777777${i}-7777-4777-8777-777777777777`,
    title: `Prueba ${i + 1}`,
    submittedAt: `2026-0${i + 1}-01T10:00:00.000Z`,
    score,
  }));

describe('the standards in Spanish', () => {
  it("the admin's standards page: frameworks, the import forms and their validation, the search, the district's mastery", async () => {
    stubFetch({
      'GET /api/standards/frameworks': () => jsonResponse(200, [FRAMEWORK]),
      'GET /api/mastery/district?limit=5&offset=0': () => jsonResponse(200, DISTRICT),
      'GET /api/standards/search?q=ratio&limit=50': () =>
        jsonResponse(200, [
          {
            identifier: 'item-1',
            code: '6.RP.A.1',
            statement: 'Understand the concept of a ratio.',
            uri: 'https://case.example.org/item-1',
            frameworkId: FRAMEWORK.id,
            frameworkTitle: FRAMEWORK.title,
            educationLevels: ['06'],
          },
        ]),
    });
    const { user } = await renderAs(ADMIN_ES, <StandardsPage />, '/admin/standards');
    expect(await screen.findByRole('heading', { name: 'Estándares', level: 1 })).toBeInTheDocument();
    const frameworks = await screen.findByRole('table', { name: 'Marcos de estándares' });
    expect(within(frameworks).getByRole('columnheader', { name: 'Actualizado' })).toBeInTheDocument();
    expect(frameworks).toHaveTextContent('Para todos');
    expect(frameworks).toHaveTextContent('Estado de prueba, versión 1.0');
    expect(frameworks).toHaveTextContent('1,200');
    expect(frameworks).toHaveTextContent('5/3/2026');
    const district = await screen.findByRole('table', { name: 'Dominio por estándar, escuela y clase' });
    expect(within(district).getByRole('rowheader', { name: '6.RP.A.1 (distrito)' })).toBeInTheDocument();
    expect(district).toHaveTextContent('En el estándar82%72 por debajo · 3 en el estándar · 2 por encima');
    expect(within(district).getByRole('row', { name: /Matemáticas 6A/ })).toHaveTextContent('menos de 5 estudiantes');
    expect(screen.getByRole('link', { name: 'Exportar dominio en CSV' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Estándares siguientes' })).toBeInTheDocument();
    expectNoRawKeys();

    const byUrl = screen.getByRole('form', { name: 'Importar desde un proveedor CASE' });
    await user.click(within(byUrl).getByRole('button', { name: 'Importar desde la URL' }));
    expect(within(byUrl).getByLabelText('URL del proveedor CASE')).toHaveAccessibleDescription(
      'Escriba la dirección de un CFPackage',
    );
    await user.type(within(byUrl).getByLabelText('URL del proveedor CASE'), 'http://provider.example/x');
    await user.click(within(byUrl).getByRole('button', { name: 'Importar desde la URL' }));
    expect(within(byUrl).getByText('La dirección debe empezar con https://')).toBeInTheDocument();
    const byFile = screen.getByRole('form', { name: 'Importar desde un archivo' });
    await user.click(within(byFile).getByRole('button', { name: 'Importar archivo' }));
    expect(within(byFile).getByText('Elija un paquete CASE (.json)')).toBeInTheDocument();
    expectNoRawKeys();

    await user.type(screen.getByLabelText('Código o palabras'), 'ratio');
    const found = await screen.findByRole('table', { name: 'Estándares encontrados' });
    expect(within(found).getByRole('columnheader', { name: 'Enunciado' })).toBeInTheDocument();
    // The standard's statement is content: it stays as the framework wrote it.
    expect(found).toHaveTextContent('Understand the concept of a ratio.');
    expectNoRawKeys();
  });

  it('a CASE import: its counts and toast, then a refusal over the size limit', async () => {
    let refuse = false;
    stubFetch({
      'GET /api/standards/frameworks': () => jsonResponse(200, []),
      'GET /api/mastery/district?limit=5&offset=0': () => jsonResponse(200, []),
      'POST /api/standards/frameworks': () =>
        refuse
          ? jsonResponse(413, { message: 'Payload too large' })
          : jsonResponse(201, { framework: FRAMEWORK, counts: { added: 3, updated: 1, unchanged: 0, withdrawn: 2 } }),
    });
    const { user } = await renderAs(ADMIN_ES, <StandardsPage />, '/admin/standards');
    await user.type(await screen.findByLabelText('URL del proveedor CASE'), 'https://provider.example/pkg');
    await user.click(screen.getByRole('button', { name: 'Importar desde la URL' }));
    const counts = await screen.findByTestId('import-counts');
    expect(counts).toHaveTextContent('Se importó Matemáticas del estado');
    expect(counts).toHaveTextContent('Agregados3Actualizados1Sin cambios0Retirados2');
    expect(await screen.findByText('Marco importado')).toBeInTheDocument();
    expectNoRawKeys();
    refuse = true;
    await user.click(screen.getByRole('button', { name: 'Importar desde la URL' }));
    const refusal = await screen.findByTestId('import-error');
    expect(refusal).toHaveTextContent('El paquete supera el límite de tamaño.');
    expect(refusal).toHaveTextContent('No se importó nada.');
    expectNoRawKeys();
  });

  it('the standards page with nothing imported yet', async () => {
    stubFetch({
      'GET /api/standards/frameworks': () => jsonResponse(200, []),
      'GET /api/mastery/district?limit=5&offset=0': () => jsonResponse(200, []),
    });
    await renderAs(ADMIN_ES, <StandardsPage />, '/admin/standards');
    expect(await screen.findByTestId('frameworks-empty')).toHaveTextContent('Todavía no hay marcos');
    expect(await screen.findByTestId('district-mastery-empty')).toHaveTextContent(
      'Todavía no hay resultados en preguntas alineadas a estándares.',
    );
    expectNoRawKeys();
  });

  it("the class page's mastery heatmap", async () => {
    stubFetch({
      'GET /api/classes/c1/mastery': () =>
        jsonResponse(200, [
          {
            studentId: 's1',
            studentName: 'Ana Silva',
            standards: [{ identifier: 'a', code: '6.RP.A.1', level: 'below', evidenceCount: 1, score: 50 }],
          },
          { studentId: 's2', studentName: 'Ben Okafor', standards: [] },
        ]),
    });
    await renderAs(TEACHER_ES, <ClassMasterySection classId="c1" />);
    expect(await screen.findByRole('heading', { name: 'Dominio de los estándares' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Dominio por estudiante y estándar' });
    const cell = within(table).getByTitle('Ana Silva, 6.RP.A.1: Por debajo del estándar, 50% a partir de 1 respuesta');
    expect(cell).toHaveTextContent('50%, Por debajo del estándar1 respuesta');
    expect(within(table).getAllByTitle('Sin evidencia')).toHaveLength(1);
    expectNoRawKeys();
  });

  it("the student's standards card on their dashboard (tú)", async () => {
    stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, STUDENT_ES),
      'GET /api/student/classes': () =>
        jsonResponse(200, [
          {
            id: 'm1',
            classId: 'c1',
            class: { name: 'Matemáticas', period: '2', subject: 'Matemáticas', teacherName: 'Ada Lovelace' },
          },
        ]),
      'GET /api/student/available-assessments': () => jsonResponse(200, []),
      'GET /api/student/results': () => jsonResponse(200, []),
      [`GET /api/mastery/students/${STUDENT_ES.id}`]: () =>
        jsonResponse(200, [
          {
            identifier: 'a',
            code: '6.RP.A.1',
            level: 'above',
            score: 91,
            evidenceCount: 3,
            trend: trend([60, 80, 100]),
          },
        ]),
    });
    await renderAs(STUDENT_ES, <StudentDashboard />, '/student-dashboard');
    expect(await screen.findByRole('heading', { name: 'Mis estándares' })).toBeInTheDocument();
    const row = await screen.findByRole('row', { name: /6\.RP\.A\.1/ });
    expect(row).toHaveTextContent('Por encima del estándar');
    expect(row).toHaveTextContent('91%3 respuestas');
    expect(row).toHaveTextContent('en aumento');
    expect(within(row).getByRole('list', { name: 'Tendencia de 6.RP.A.1' })).toHaveTextContent(
      '60% en Prueba 180% en Prueba 2100% en Prueba 3',
    );
    expect(screen.getByRole('columnheader', { name: 'Tendencia' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Exportar estándares en CSV' })).toBeInTheDocument();
    expectNoRawKeys();
  });

  it('the standards picker: its hint, a chosen chip and the full state', async () => {
    stubFetch({});
    const chosen: StandardRef[] = [{ identifier: 'a', code: '6.RP.A.1', statement: 'Understand ratios.' }];
    await renderAs(TEACHER_ES, <StandardsPicker id="p" value={chosen} onChange={() => {}} max={1} />);
    expect(await screen.findByText('Como máximo 1 estándar: quítelo para elegir otro.')).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Estándares elegidos' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Quitar 6.RP.A.1' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Estándares' })).toBeDisabled();
    expectNoRawKeys();
  });
});

const COMMON_ID = '33333333-3333-4333-8333-333333333333';
const CLASS_ID = '55555555-5555-4555-8555-555555555555';
const common = (over: Partial<CommonAssessment> = {}): CommonAssessment => ({
  id: COMMON_ID,
  title: 'Evaluación de razones',
  description: 'Unidad 2',
  topic: '',
  standard: '',
  status: 'draft',
  targets: { schools: [], grades: [], subjects: [] },
  publishedAt: null,
  createdAt: '2026-01-05T10:00:00.000Z',
  updatedAt: '2026-01-05T10:00:00.000Z',
  questionCount: 3,
  classIds: [],
  ...over,
});

describe('the common assessments in Spanish', () => {
  it("the admin's page: the new assessment's validation, a draft's publish form, a published one's targets", async () => {
    stubFetch({
      'GET /api/common-assessments': () =>
        jsonResponse(200, [
          common(),
          common({
            id: 'p1',
            title: 'Evaluación publicada',
            status: 'published',
            questionCount: 1,
            targets: { schools: [], grades: ['06'], subjects: [] },
          }),
        ]),
      'GET /api/standards/frameworks': () => jsonResponse(200, []),
      'GET /api/common-assessments/targets': () =>
        jsonResponse(200, { schools: [{ id: 'org-hill', name: 'Hill Middle' }], grades: ['06'], subjects: [] }),
    });
    const { user } = await renderAs(ADMIN_ES, <CommonAssessmentsPage />, '/admin/common-assessments');
    expect(await screen.findByRole('heading', { name: 'Evaluaciones comunes', level: 1 })).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'Nueva evaluación común' });
    await user.click(within(form).getByRole('button', { name: 'Guardar borrador' }));
    expect(within(form).getByLabelText('Título')).toHaveAccessibleDescription('El título es obligatorio');
    expect(within(form).getByRole('alert')).toHaveTextContent('Una evaluación común necesita al menos una pregunta');
    expect(screen.getByRole('heading', { name: 'Preguntas (0)' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Agregar una pregunta' })).toBeInTheDocument();
    expect(await screen.findByText('Borrador')).toBeInTheDocument();
    expect(screen.getByText('3 preguntas')).toBeInTheDocument();
    expect(screen.getByText('1 pregunta')).toBeInTheDocument();
    expect(screen.getByText('Publicada')).toBeInTheDocument();
    expect(screen.getByText('Escuelas: todas · Grados: 06 · Materias: todas')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ver informe' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Editar preguntas' })).toBeInTheDocument();
    expectNoRawKeys();

    await user.click(screen.getByRole('button', { name: 'Publicar…' }));
    const publish = await screen.findByRole('form', { name: 'Publicar Evaluación de razones' });
    expect(within(publish).getByRole('group', { name: 'Escuelas' })).toBeInTheDocument();
    // No subject is known yet: subjects are typed.
    expect(within(publish).getByLabelText('Materias (lista separada por comas)')).toBeInTheDocument();
    expect(within(publish).getByRole('button', { name: 'Publicar' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cerrar' })).toHaveAttribute('aria-expanded', 'true');
    expectNoRawKeys();
  });

  it('the roll-up report, with a group of fewer than 5 students', async () => {
    const report: CommonAssessmentReport = {
      commonAssessmentId: COMMON_ID,
      title: 'Evaluación de razones',
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
          schoolName: 'Escuela Roble',
          suppressed: false,
          students: 12,
          submitted: 10,
          averagePercentage: 71,
          levels: { below: 3, at: 4, above: 3 },
          standards: [],
          classes: [{ classId: 'c2', className: 'Periodo 2', suppressed: true }],
        },
      ],
    };
    stubFetch({ [`GET /api/common-assessments/${COMMON_ID}/report`]: () => jsonResponse(200, report) });
    await renderAs(ADMIN_ES, <CommonReport id={COMMON_ID} />);
    expect(await screen.findByRole('heading', { name: 'Informe: Evaluación de razones' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Entregas' })).toBeInTheDocument();
    const district = screen.getByRole('row', { name: /^Distrito/ });
    expect(district).toHaveTextContent('Por debajo 3 · En el estándar 4 · Por encima 3');
    expect(within(district).getByText('6.RP.A.1: 71%')).toBeInTheDocument();
    expect(screen.getByRole('row', { name: /Periodo 2/ })).toHaveTextContent('menos de 5 estudiantes');
    expect(screen.getByRole('link', { name: 'Exportar informe en CSV' })).toBeInTheDocument();
    expectNoRawKeys();
  });

  it("a teacher's district assessments: assigning one to a class", async () => {
    stubFetch({
      'GET /api/common-assessments': () => jsonResponse(200, [common({ status: 'published', classIds: [CLASS_ID] })]),
      'GET /api/classes': () => jsonResponse(200, [{ id: CLASS_ID, name: 'Matemáticas 6A' }]),
      [`POST /api/common-assessments/${COMMON_ID}/assign`]: () =>
        jsonResponse(201, { id: 'copy-1', classId: CLASS_ID, title: 'Evaluación de razones' }),
    });
    const { user } = await renderAs(TEACHER_ES, <DistrictAssessments />, '/assessments');
    expect(await screen.findByRole('heading', { name: 'Evaluaciones del distrito' })).toBeInTheDocument();
    const form = await screen.findByRole('form', { name: 'Asignar Evaluación de razones' });
    await user.click(within(form).getByRole('button', { name: 'Asignar a la clase' }));
    expect(within(form).getByText('Elija una clase')).toBeInTheDocument();
    expectNoRawKeys();
    await waitFor(() => expect(within(form).getByRole('option', { name: 'Matemáticas 6A' })).toBeInTheDocument());
    await user.selectOptions(within(form).getByLabelText('Clase'), CLASS_ID);
    await user.click(within(form).getByRole('button', { name: 'Asignar a la clase' }));
    expect(await screen.findByRole('link', { name: 'Abrir la copia de la clase' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      'Asignada. Abrir la copia de la clase (el distrito bloqueó sus preguntas).',
    );
    expectNoRawKeys();
  });

  it('no district assessment yet', async () => {
    stubFetch({
      'GET /api/common-assessments': () => jsonResponse(200, []),
      'GET /api/classes': () => jsonResponse(200, []),
    });
    await renderAs(TEACHER_ES, <DistrictAssessments />, '/assessments');
    expect(
      await screen.findByText('Su distrito no ha publicado ninguna evaluación para sus clases.'),
    ).toBeInTheDocument();
    expectNoRawKeys();
  });
});
