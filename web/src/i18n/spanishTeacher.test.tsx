// The teacher's screens in Spanish (the class page and its sections, the dashboard, the
// accommodations, the student logins, the subscription page): no raw key, and the Spanish text each
// screen is known to say. Names, class names and other user content stay as they were typed.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../app/store';
import { ClassDetailPage } from '../features/classes/ClassDetailPage';
import { LoginCardsSheet } from '../features/studentLogins/LoginCardsSheet';
import { TeacherDashboard } from '../features/dashboard/TeacherDashboard';
import { SubscriptionPage } from '../features/subscription/SubscriptionPage';
import { StudentSignInModal } from '../features/admin/StudentSignInModal';
import { authApi } from '../session/authApi';
import { TEACHER, stubFetch } from '../test/fetchStub';
import { expectNoRawKeys, inSpanish } from '../test/spanish';
import { jsonResponse, renderWithProviders } from '../test/test-utils';

vi.mock('qrcode', () => ({
  toString: (url: string) => Promise.resolve(`<svg data-url="${url}"></svg>`),
}));

const ME = { ...TEACHER, locale: 'es' as const };

const CLASS = {
  id: 'c1',
  name: 'Biología',
  subject: 'Ciencias',
  period: '4',
  joinCode: 'BXR7KP',
  createdAt: '2024-03-05T10:00:00.000Z',
  teacherId: ME.id,
  teacherName: 'Ada Lovelace',
  studentCount: 3,
  assessmentCount: 1,
  belowStandard: 2,
  atStandard: 0,
  aboveStandard: 1,
  archived: false,
  coTeaching: false,
};

const TEACHERS = [
  { id: ME.id, firstName: 'Ada', lastName: 'Lovelace', email: ME.email, owner: true },
  { id: 'u9', firstName: 'Cora', lastName: 'Díaz', email: 'cora@escuela.org', owner: false },
  { id: 'inv1', firstName: null, lastName: null, email: 'nuevo@distrito.org', owner: false, invitation: 'pending' },
];

const MEMBERS = [
  {
    id: 'm1',
    joinedAt: '2024-03-06T10:00:00.000Z',
    student: { id: 's1', firstName: 'Maya', lastName: 'Rivera', email: 'maya@escuela.org' },
  },
];

const NONE = {
  readAloud: false,
  reducedChoices: 0,
  extraTime: 1,
  largeText: false,
  highContrast: false,
  lineGuide: false,
  answerMasking: false,
};
const ACCOMMODATIONS = [
  {
    studentId: 's1',
    firstName: 'Maya',
    lastName: 'Rivera',
    ...NONE,
    readAloud: true,
    reducedChoices: 1,
    extraTime: 1.5,
  },
  { studentId: 's2', firstName: 'Ben', lastName: 'Abbott', ...NONE },
];

const LOGINS = {
  classCode: 'BXR7KP',
  students: [
    {
      id: 's3',
      firstName: 'Leo',
      lastName: 'Soto',
      username: 'leo.s',
      signInWith: 'picture',
      createdAt: '2026-11-01T10:00:00.000Z',
      signInChangedAt: '2026-11-01T10:00:00.000Z',
    },
  ],
  withoutSignIn: [{ id: 's7', firstName: 'Rosa', lastName: 'Díaz' }],
  cards: { inForce: 2, expiresAt: '2027-05-28T10:00:00.000Z' },
};

const LTI = {
  classId: 'c1',
  courses: [
    {
      contextId: 'course-1',
      contextTitle: 'Química 9',
      rosterAvailable: true,
      lastSyncedAt: '2026-01-01T00:00:00.000Z',
      lastOutcome: { ok: true, added: 2, kept: 1, skipped: 0 },
    },
  ],
};

inSpanish();

beforeEach(() => {
  stubFetch({
    'GET /api/auth/user': () => jsonResponse(200, ME),
    'GET /api/classes': () => jsonResponse(200, [CLASS]),
    'GET /api/classes/c1': () => jsonResponse(200, CLASS),
    'GET /api/classes/c1/results': () => jsonResponse(200, []),
    'GET /api/classes/c1/students': () => jsonResponse(200, MEMBERS),
    'GET /api/classes/c1/teachers': () => jsonResponse(200, TEACHERS),
    'GET /api/classes/c1/accommodations': () => jsonResponse(200, ACCOMMODATIONS),
    'GET /api/classes/c1/student-logins': () => jsonResponse(200, LOGINS),
    'GET /api/integrations/lti/classes/c1/roster': () => jsonResponse(200, LTI),
    'POST /api/integrations/lti/classes/c1/roster/sync': () =>
      jsonResponse(200, {
        courses: [
          {
            classId: 'c1',
            contextId: 'course-1',
            contextTitle: 'Química 9',
            syncedAt: '2026-01-02T00:00:00.000Z',
            added: [{ lmsUserId: 'l1', name: 'Lee One', userId: 'u1', accountCreated: true }],
            kept: [],
            skipped: [{ lmsUserId: 'l2', name: 'Lee Two', reason: 'inactive', detail: 'Inactive' }],
          },
        ],
      }),
  });
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function renderSignedIn(ui: ReactElement, route = '/') {
  const store = makeStore();
  await store.dispatch(authApi.util.upsertQueryData('getCurrentUser', undefined, ME));
  return renderWithProviders(ui, { store, route });
}

const classPage = () =>
  renderSignedIn(
    <Routes>
      <Route path="/class/:id" element={<ClassDetailPage />} />
    </Routes>,
    '/class/c1',
  );

describe("the teacher's screens in Spanish", () => {
  it('the class page: header, figures, teachers, LMS roster', async () => {
    await classPage();
    expect(await screen.findByRole('heading', { name: 'Biología' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← Volver a las clases' })).toBeInTheDocument();
    expect(screen.getByText('Periodo 4')).toBeInTheDocument();
    expect(screen.getByText(/^Creada el /)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Administrar estudiantes' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Crear evaluación' })).toBeInTheDocument();
    expect(screen.getByText('Estudiantes inscritos')).toBeInTheDocument();
    // 1 of 3 assessed students above: the share in es-US's percent format.
    expect(screen.getByText(/^33\s?% de 3 evaluados$/)).toBeInTheDocument();

    expect(await screen.findByRole('heading', { name: 'Maestros' })).toBeInTheDocument();
    const teachers = screen.getByRole('list', { name: 'Maestros de esta clase' });
    expect(await within(teachers).findByText('Propietario')).toBeInTheDocument();
    expect(within(teachers).getByText('Maestro colaborador')).toBeInTheDocument();
    expect(within(teachers).getByText('Invitado')).toBeInTheDocument();
    expect(within(teachers).getByRole('button', { name: 'Quitar a Cora Díaz' })).toBeInTheDocument();
    expect(
      within(teachers).getByRole('button', { name: 'Retirar la invitación de nuevo@distrito.org' }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Agregar un maestro colaborador')).toHaveAttribute(
      'placeholder',
      'maestro@escuela.org',
    );

    const lms = await screen.findByRole('region', { name: 'Lista del LMS' });
    expect(lms).toHaveTextContent('Curso del LMS: Química 9');
    expect(lms).toHaveTextContent(': 2 agregados, 1 conservados, 0 omitidos');
    expectNoRawKeys();

    // The owner's add without an address: the message in Spanish.
    const section = screen.getByRole('region', { name: 'Maestros' });
    fireEvent.click(within(section).getByRole('button', { name: 'Agregar maestro' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent(
      'Escriba el correo electrónico de un maestro de su escuela o distrito',
    );
    // A roster sync: what was added and skipped, and why.
    fireEvent.click(within(lms).getByRole('button', { name: 'Sincronizar la lista desde el LMS' }));
    const status = await within(lms).findByRole('status');
    expect(status).toHaveTextContent('1 agregados, 0 ya estaban en la clase, 1 omitidos');
    expect(status).toHaveTextContent('Lee Two: inactivo en el LMS');
    expectNoRawKeys();
  });

  it('the class page: Manage Students, its students and the removal confirm', async () => {
    await classPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Administrar estudiantes' }));
    // The dialogs load when first opened (a slow, shared machine may take a while).
    const dialog = await screen.findByRole('dialog', { name: 'Administración de la clase' }, { timeout: 5000 });
    expect(within(dialog).getByRole('tab', { name: 'Crear clase' })).toBeInTheDocument();
    expect(await within(dialog).findByLabelText('Clase')).toHaveDisplayValue('Biología - Periodo 4');
    expect(within(dialog).getByText(/Los estudiantes se unen con el código de la clase/)).toBeInTheDocument();
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Quitar a Maya Rivera' }, { timeout: 5000 }));
    const confirm = await within(dialog).findByRole('alertdialog', { name: 'Confirmar la baja del estudiante' });
    expect(confirm).toHaveTextContent('¿Quitar a Maya Rivera de esta clase? Ya no verá sus evaluaciones.');
    expect(within(confirm).getByRole('button', { name: 'Quitar estudiante' })).toBeInTheDocument();
    expectNoRawKeys();
    fireEvent.click(within(dialog).getByRole('tab', { name: 'Crear clase' }));
    expect(await within(dialog).findByRole('button', { name: 'Crear clase' })).toBeInTheDocument();
    expectNoRawKeys();
  });

  it("the class page: accommodations, the edit dialog and the substitute's sheet", async () => {
    await classPage();
    const table = await screen.findByRole('table', { name: 'Adaptaciones' });
    expect(
      await within(table).findByText('Lectura en voz alta, Menos opciones de respuesta (quitar 1), 1.5× el tiempo'),
    ).toBeInTheDocument();
    expect(within(table).getByText('Ninguna')).toBeInTheDocument();
    expect(screen.getByText('1 de 2 estudiantes tienen alguna.')).toBeInTheDocument();
    expectNoRawKeys();

    fireEvent.click(within(table).getByRole('button', { name: 'Editar las adaptaciones de Ben Abbott' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adaptaciones de Ben Abbott' }, { timeout: 5000 });
    expect(within(dialog).getByLabelText('Menos opciones de respuesta')).toHaveDisplayValue('Todas las opciones');
    expect(within(dialog).getByRole('option', { name: 'Quitar 1 opción incorrecta' })).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Tiempo adicional')).toHaveDisplayValue('Tiempo normal');
    expect(within(dialog).getByRole('checkbox', { name: 'Texto grande' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Guardar' })).toBeInTheDocument();
    expectNoRawKeys();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));

    // The printed sheet, in Spanish too.
    let printed = '';
    vi.spyOn(window, 'print').mockImplementation(() => {
      printed = document.querySelector('.print-sheet')?.textContent ?? '';
    });
    fireEvent.click(screen.getByRole('button', { name: 'Imprimir para un suplente' }));
    await waitFor(() => expect(printed).toContain('Adaptaciones: Biología'));
    expect(printed).toContain('Para el maestro suplente, impreso el');
    expect(printed).toContain('Los otros 1 estudiantes de la clase no tienen ninguna.');
    expect(printed).not.toContain('Ben Abbott');
  });

  it('the class page: student logins, the new student form with its messages, the login cards', async () => {
    await classPage();
    const table = await screen.findByRole('table', { name: 'Acceso de estudiantes' });
    expect(within(table).getByRole('columnheader', { name: 'Nombre de usuario' })).toBeInTheDocument();
    expect(within(table).getByText('Una imagen')).toBeInTheDocument();
    expect(screen.getByText(/^2 tarjetas impresas permiten iniciar sesión hasta el /)).toBeInTheDocument();
    expectNoRawKeys();

    fireEvent.click(screen.getByRole('button', { name: 'Agregar un estudiante sin correo electrónico' }));
    const form = await screen.findByRole('form', { name: 'Agregar un estudiante sin correo electrónico' });
    fireEvent.click(within(form).getByRole('button', { name: 'Agregar estudiante' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('El nombre es obligatorio');
    fireEvent.change(within(form).getByLabelText('Nombre'), { target: { value: 'Eva' } });
    fireEvent.change(within(form).getByLabelText('Nombre de usuario'), { target: { value: 'eva.m' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Agregar estudiante' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Elija una imagen');
    fireEvent.click(within(form).getByLabelText('Dos palabras'));
    fireEvent.change(within(form).getByLabelText('Sus dos palabras'), { target: { value: 'x' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Agregar estudiante' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Escriba dos palabras cortas (solo letras)');
    expectNoRawKeys();

    fireEvent.click(within(table).getByRole('button', { name: 'Restablecer la contraseña de Leo Soto' }));
    expect(await screen.findByRole('form', { name: 'Nueva contraseña de Leo Soto' })).toBeInTheDocument();
    expectNoRawKeys();

    // A student who came from the roster without an e-mail.
    const waiting = screen.getByRole('list', { name: 'Llegaron sin correo electrónico' });
    fireEvent.click(within(waiting).getByRole('button', { name: 'Configurar el inicio de sesión de Rosa Díaz' }));
    const setUp = await screen.findByRole('form', { name: 'Inicio de sesión de Rosa Díaz' });
    fireEvent.click(within(setUp).getByRole('button', { name: 'Guardar' }));
    expect(await within(setUp).findByRole('alert')).toHaveTextContent('al menos 3');
    expectNoRawKeys();
  });

  it('the login cards sheet', async () => {
    await renderSignedIn(
      <LoginCardsSheet
        className="Biología"
        onClose={() => undefined}
        cards={{
          classCode: 'BXR7KP',
          cards: [
            {
              studentId: 's3',
              firstName: 'Leo',
              lastName: 'Soto',
              username: 'leo.s',
              url: 'https://checkpoint.example/login-card#secret-1',
              expiresAt: '2027-05-28T10:00:00.000Z',
            },
          ],
        }}
      />,
    );
    const sheet = screen.getByRole('region', { name: 'Tarjetas de acceso' });
    expect(sheet).toHaveTextContent('Imprima estas tarjetas ahora');
    expect(sheet).toHaveTextContent('Funcionan hasta el 28/5/2027.');
    expect(within(sheet).getByRole('listitem', { name: 'Tarjeta de acceso de Leo Soto' })).toHaveTextContent(
      'Código de la clase BXR7KP',
    );
    expect(
      await within(sheet).findByRole('img', { name: 'Código QR para iniciar sesión como Leo' }),
    ).toBeInTheDocument();
    expect(within(sheet).getByRole('button', { name: 'Imprimir' })).toBeInTheDocument();
    expectNoRawKeys();
  });

  it("the teacher's dashboard, with a class and with none", async () => {
    await renderSignedIn(<TeacherDashboard />);
    expect(await screen.findByRole('heading', { name: 'Panel de evaluaciones' })).toBeInTheDocument();
    expect(await screen.findByText('Total de estudiantes')).toBeInTheDocument();
    expect(screen.getByText('Estudiantes en el estándar')).toBeInTheDocument();
    expect(screen.getByText('Necesitan apoyo')).toBeInTheDocument();
    expect(screen.getByText('3 estudiantes')).toBeInTheDocument();
    expect(screen.getByText('1 evaluación')).toBeInTheDocument();
    expect(screen.getByLabelText('Clase')).toHaveDisplayValue('Biología - Periodo 4');
    expect(screen.getByRole('link', { name: 'Ver detalles' })).toHaveAttribute('href', '/class/c1');
    expect(screen.getByRole('button', { name: 'Administrar estudiantes' })).toBeInTheDocument();
    expectNoRawKeys();
  });

  it("the teacher's dashboard without a class: the welcome", async () => {
    stubFetch({ 'GET /api/classes': () => jsonResponse(200, []) });
    await renderSignedIn(<TeacherDashboard />);
    expect(await screen.findByRole('heading', { name: '¡Bienvenido a Checkpoint!' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Crear clase' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Mis clases' })).toBeInTheDocument();
    expectNoRawKeys();
  });

  it('the subscription page, its usage and its upgrade toast', async () => {
    stubFetch({ 'GET /api/dashboard/usage': () => jsonResponse(200, { classes: 1, students: 0, assessments: 1 }) });
    await renderSignedIn(<SubscriptionPage />, '/subscription');
    expect(await screen.findByRole('heading', { name: 'Suscripción y facturación' })).toBeInTheDocument();
    expect(await screen.findByTestId('usage-classes')).toHaveTextContent('1 clase creada (quedan 2)');
    expect(screen.getByTestId('usage-students')).toHaveTextContent('0 estudiantes (quedan 50)');
    expect(screen.getByTestId('usage-assessments')).toHaveTextContent('1 evaluación (ilimitado)');
    expect(screen.getAllByText('Prueba gratuita').length).toBeGreaterThan(0);
    expect(screen.getByText('Quedan 14 días')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Profesional' })).toBeInTheDocument();
    expect(screen.getByText('El más popular')).toBeInTheDocument();
    expect(screen.getByText('Clases y estudiantes ilimitados')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Plan actual' })).toBeDisabled();
    expectNoRawKeys();
    fireEvent.click(screen.getByRole('button', { name: 'Mejorar el plan' }));
    expect(await screen.findByText('Mejora disponible')).toBeInTheDocument();
    expectNoRawKeys();
  });

  it("the picture or words' message, also in the admin's sign-in dialog (SecretFields is shared)", async () => {
    await renderSignedIn(
      <StudentSignInModal
        onClose={() => undefined}
        student={{
          id: 's4',
          email: 'roster-1@roster.invalid',
          firstName: 'Rosa',
          lastName: 'Díaz',
          role: 'student',
          createdAt: '2026-11-30T10:00:00.000Z',
          emailVerified: false,
          disabled: false,
          source: 'roster',
          username: 'rosa.d',
          signInWith: null,
        }}
      />,
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('group', { name: 'Inicia sesión con' })).toBeInTheDocument();
    fireEvent.submit(dialog.querySelector('form')!);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Elija una imagen');
    expectNoRawKeys();
  });
});
