// The district admin's screens rendered in Spanish (admin namespace): the sections' tabs, the
// dashboard, the users page with its invite dialog and remove confirm, the roster import, the
// sign-in settings, the integrations and the privacy page with its audit log. No raw key, and the
// Spanish text each screen is known to say. The names, e-mails and server texts stay as they are.
import 'fake-indexeddb/auto';
import { fireEvent, screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../app/store';
import { AdminDashboardPage } from '../features/admin/AdminDashboardPage';
import { AdminLayout } from '../features/admin/AdminLayout';
import { AdminIntegrationsSection, AdminPrivacySection, AdminSignInSection } from '../features/admin/AdminSections';
import type { LtiRegistrationList } from '../features/admin/integrationsApi';
import { DistrictUsersPage } from '../features/admin/DistrictUsersPage';
import type { District, DistrictUser } from '../features/admin/districtApi';
import { RosterImport } from '../features/admin/RosterImport';
import type { RosterImport as RosterImportView } from '../features/admin/rosterApi';
import type { AdminStats } from '../features/results';
import { authApi } from '../session/authApi';
import { TEACHER, stubFetch } from '../test/fetchStub';
import { expectNoRawKeys, inSpanish } from '../test/spanish';
import { jsonResponse, renderWithProviders } from '../test/test-utils';

const ADMIN = {
  ...TEACHER,
  id: 'es-admin',
  firstName: 'Ana',
  lastName: 'Administradora',
  role: 'admin' as const,
  accountType: 'district' as const,
  locale: 'es' as const,
};

const STATS: AdminStats = {
  totalUsers: 42,
  totalTeachers: 5,
  totalStudents: 36,
  totalClasses: 7,
  totalAssessments: 12,
  totalResponses: 90,
  recentSignups: [
    { name: 'Sam Student', email: 'sam@demo.checkpoint.school', role: 'student', date: '2024-03-05T10:00:00.000Z' },
    { name: 'Tess Teacher', email: 'tess@demo.checkpoint.school', role: 'teacher', date: '2024-03-04T09:00:00.000Z' },
  ],
  averageScore: 76.6,
  levels: { below: 30, at: 40, above: 20 },
};

const DISTRICT: District = {
  id: 't1',
  name: 'Distrito Maple',
  kind: 'district',
  emailDomains: ['maple.example.org'],
  passwordSignIn: true,
  counts: { admin: 1, teacher: 2, student: 1, disabled: 1 },
};

const person = (over: Partial<DistrictUser>): DistrictUser => ({
  id: 'x',
  email: 'x@maple.example.org',
  firstName: 'X',
  lastName: 'Y',
  role: 'teacher',
  createdAt: '2024-03-05T10:00:00.000Z',
  emailVerified: true,
  disabled: false,
  source: 'password',
  username: null,
  signInWith: null,
  ...over,
});

const USERS = [
  person({ id: ADMIN.id, email: 'ana@maple.example.org', firstName: 'Ana', lastName: 'Administradora', role: 'admin' }),
  person({ id: 't2', email: 'tomas@maple.example.org', firstName: 'Tomás', lastName: 'Pérez', source: 'sso' }),
  person({
    id: 's3',
    email: 'sofia@maple.example.org',
    firstName: 'Sofía',
    lastName: 'Ruiz',
    role: 'student',
    source: 'roster',
    emailVerified: false,
  }),
];

const IMPORT_ID = '0a0b0c0d-0000-4000-8000-000000000001';
const counts = (over: Partial<Record<string, number>> = {}) => ({
  rows: 0,
  new: 0,
  updated: 0,
  unchanged: 0,
  deleted: 0,
  read: 0,
  invalid: 0,
  dropped: 0,
  ...over,
});
const PREVIEW: RosterImportView = {
  id: IMPORT_ID,
  mode: 'bulk',
  status: 'previewed',
  progress: { done: 0, total: 3 },
  counts: {
    users: counts({ rows: 4, new: 1, unchanged: 1, invalid: 1 }),
    classes: counts({ rows: 1, new: 1 }),
    enrollments: counts({ rows: 3, new: 2, invalid: 1 }),
  },
  errorCount: 2,
  failure: null,
  createdAt: '2026-11-20T08:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  errors: [
    { file: 'users.csv', line: 4, sourcedId: 's2', field: 'email', message: 'email "nope" is not an email address' },
    { file: 'enrollments.csv', line: 3, sourcedId: 'e3', field: 'userSourcedId', message: 'user s2 was skipped' },
  ],
};

const SSO = {
  connection: {
    id: '0b7e7b1e-2222-4b4b-8b8b-000000000002',
    issuer: 'https://accounts.google.com',
    kind: 'google',
    clientId: '1234.apps.googleusercontent.com',
    hasSecret: true,
    emailDomains: ['district.org'],
    displayName: 'Escuelas de Springfield',
    enabled: true,
    updatedAt: '2026-01-01T00:00:00.000Z',
    initiateLoginUri: 'https://app.example/api/auth/sso/0b7e7b1e-2222-4b4b-8b8b-000000000002/initiate',
  },
  passwordSignIn: true,
  districtDomains: ['district.org', 'staff.district.org'],
  redirectUri: 'https://app.example/api/auth/google/callback',
};

const LTI_BASE = '/api/integrations/lti/registrations';
const REGISTRATION = {
  id: '0b7e7b1e-3333-4b4b-8b8b-000000000003',
  issuer: 'https://canvas.instructure.com',
  clientId: '10000000000042',
  deploymentIds: [],
  jwksUrl: 'https://sso.canvaslms.com/api/lti/security/jwks',
  authorizationUrl: 'https://sso.canvaslms.com/api/lti/authorize_redirect',
  tokenUrl: 'https://sso.canvaslms.com/login/oauth2/token',
  adminRoleFromLms: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const LTI: LtiRegistrationList = {
  registrations: [REGISTRATION],
  tool: {
    loginUrl: 'https://app.example/api/lti/login',
    launchUrl: 'https://app.example/api/lti/launch',
    jwksUrl: 'https://app.example/api/lti/jwks',
  },
};
const SCORE_FAILURE = {
  id: '00000000-0000-4000-8000-000000000001',
  userId: '00000000-0000-4000-8000-000000000002',
  lmsUserId: 'lms-42',
  assessmentId: '00000000-0000-4000-8000-000000000003',
  lineitemUrl: 'https://lms.example.org/lineitems/1/lineitem',
  status: 'failed',
  scoreGiven: 3,
  scoreMaximum: 4,
  gradingProgress: 'FullyGraded',
  scoreTimestamp: '2026-11-30T10:00:00.000Z',
  attempts: 1,
  nextAttemptAt: null,
  lastError: "The platform's token URL: it answered 401",
  sentAt: null,
};

const PRIVACY_STUDENT = person({
  id: '0193a3b0-0000-7000-8000-00000000000a',
  email: 'pia@district.example.org',
  firstName: 'Pía',
  lastName: 'Prado',
  role: 'student',
});
const EXPORT_REQUEST = {
  requestId: '0193a3b0-0000-7000-8000-0000000000ff',
  kind: 'export',
  createdAt: '2026-11-23T10:00:00.000Z',
  expected: 5,
  answered: 5,
  complete: true,
  services: [],
};
const AUDIT_ENTRY = {
  id: '1',
  at: '2026-11-23T09:00:00.000Z',
  actorId: 't1',
  actorName: 'Tess Teacher',
  actorRole: 'teacher',
  action: 'read',
  resource: 'GET /api/classes/{id}/grid',
  targetIds: ['c1'],
  requestId: 'r1',
  clientAddress: '127.0.0.1',
  service: 'analytics',
  event: null,
  details: {},
  summary: "Tess Teacher viewed a class's results grid",
};

inSpanish();

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The admin's screen at a route, inside the admin's tabs, signed in as a Spanish-speaking admin. */
async function renderAdmin(path: string, element: ReactElement, route = `/admin/${path}`) {
  const store = makeStore();
  await store.dispatch(authApi.util.upsertQueryData('getCurrentUser', undefined, ADMIN));
  return renderWithProviders(
    <Routes>
      <Route path="/admin" element={<AdminLayout />}>
        {path === '' ? <Route index element={element} /> : <Route path={path} element={element} />}
      </Route>
    </Routes>,
    { store, route },
  );
}

describe("the district admin's screens in Spanish", () => {
  it('the tabs and the dashboard', async () => {
    stubFetch({ 'GET /api/admin/stats': () => jsonResponse(200, STATS) });
    await renderAdmin('', <AdminDashboardPage />, '/admin');
    const tabs = screen.getByRole('navigation', { name: 'Secciones de administración' });
    expect(within(tabs).getByRole('link', { name: 'Resumen' })).toHaveClass('active');
    expect(within(tabs).getByRole('link', { name: 'Privacidad' })).toHaveAttribute('href', '/admin/privacy');
    expect(screen.getByRole('heading', { name: 'Panel de administración', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Un resumen de su distrito')).toBeInTheDocument();
    expect(await screen.findByText('Usuarios en total')).toBeInTheDocument();
    expect(screen.getByTestId('admin-stat-Total Users')).toHaveTextContent('42');
    expect(screen.getByTestId('admin-level-Above Standard')).toHaveTextContent('Por encima del estándar');
    const signups = within(screen.getByRole('list', { name: 'Registros recientes' })).getAllByRole('listitem');
    expect(within(signups[0]!).getByText('Estudiante')).toHaveClass('badge');
    expect(signups[0]).toHaveTextContent('Sam Student');
    expect(signups[0]).toHaveTextContent('2024');
    expect(screen.getByRole('link', { name: 'Administrar usuarios' })).toHaveAttribute('href', '/admin/users');
    expect(screen.getByRole('heading', { name: 'Notificaciones por correo' })).toBeInTheDocument();
    expectNoRawKeys();
  });

  it('the users page, its invite dialog and its remove confirm', async () => {
    stubFetch({
      'GET /api/district': () => jsonResponse(200, DISTRICT),
      'GET /api/district/users?limit=50': () => jsonResponse(200, { users: USERS, nextCursor: 'next' }),
      'GET /api/district/invitations': () =>
        jsonResponse(200, {
          invitations: [
            {
              id: 'i1',
              email: 'nuevo@maple.example.org',
              role: 'teacher',
              createdAt: '2024-03-05T10:00:00.000Z',
              expiresAt: '2024-03-12T10:00:00.000Z',
            },
          ],
        }),
    });
    await renderAdmin('users', <DistrictUsersPage />);
    expect(screen.getByRole('heading', { name: 'Usuarios', level: 1 })).toBeInTheDocument();
    expect(await screen.findByText('1 administrador(a) · 2 maestros · 1 estudiante · 1 eliminado')).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Usuarios del distrito' });
    expect(within(table).getByRole('columnheader', { name: 'Se unió mediante' })).toBeInTheDocument();
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('Ana Administradora (usted)');
    expect(rows[1]).toHaveTextContent('Inicio de sesión del distrito');
    expect(within(rows[1]!).getByRole('button', { name: 'Hacer a Tomás Pérez administrador(a)' })).toBeInTheDocument();
    expect(rows[2]).toHaveTextContent('Activo · correo sin verificar');
    expect(rows[2]).toHaveTextContent('Lista de inscripción');
    expect(screen.getByRole('list', { name: 'Invitaciones pendientes' })).toHaveTextContent('maestro(a)');
    expect(
      screen.getByRole('button', { name: 'Revocar la invitación de nuevo@maple.example.org' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Filtrar por rol' })).toHaveDisplayValue('Todos los roles');
    expect(screen.getByRole('searchbox', { name: 'Buscar usuarios' })).toHaveAttribute(
      'placeholder',
      'Buscar por nombre o correo',
    );
    expect(screen.getByRole('button', { name: 'Página siguiente' })).toBeInTheDocument();
    expectNoRawKeys();

    fireEvent.click(within(rows[1]!).getByRole('button', { name: 'Eliminar a Tomás Pérez' }));
    const confirm = await screen.findByRole('dialog');
    expect(within(confirm).getByRole('heading', { name: 'Eliminar usuario' })).toBeInTheDocument();
    expect(confirm).toHaveTextContent('¿Eliminar a Tomás Pérez (tomas@maple.example.org) de su distrito?');
    expect(within(confirm).getByText('Tomás Pérez').tagName).toBe('STRONG');
    expectNoRawKeys();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancelar' }));

    fireEvent.click(screen.getByRole('button', { name: 'Invitar' }));
    const invite = await screen.findByRole('dialog', { name: 'Invitar a alguien' });
    expect(within(invite).getByLabelText('Rol')).toHaveDisplayValue('Maestro(a)');
    expect(within(invite).getByRole('button', { name: 'Enviar invitación' })).toBeDisabled();
    expectNoRawKeys();
  });

  it('the roster import: preview, its confirm and the summary (the row errors stay as the server sends them)', async () => {
    let applied = false;
    stubFetch({
      'POST /api/district/roster/imports': () => jsonResponse(201, PREVIEW),
      [`GET /api/district/roster/imports/${IMPORT_ID}`]: () =>
        jsonResponse(200, applied ? { ...PREVIEW, status: 'done', progress: { done: 3, total: 3 } } : PREVIEW),
      [`POST /api/district/roster/imports/${IMPORT_ID}/apply`]: () => {
        applied = true;
        return jsonResponse(202, { ...PREVIEW, status: 'running', errors: undefined });
      },
    });
    const { user } = await renderAdmin('roster', <RosterImport />);
    expect(screen.getByRole('heading', { name: 'Lista de inscripción', level: 1 })).toBeInTheDocument();
    expectNoRawKeys();
    await user.upload(screen.getByLabelText('Paquete de OneRoster'), new File(['zip'], 'roster.zip'));
    await user.click(screen.getByRole('button', { name: 'Vista previa' }));
    const preview = await screen.findByTestId('roster-preview');
    expect(within(preview).getByRole('heading', { name: 'Vista previa (lista completa)' })).toBeInTheDocument();
    const table = within(preview).getByRole('table', { name: 'Filas por archivo' });
    expect(within(table).getByRole('columnheader', { name: 'Sin cambios' })).toBeInTheDocument();
    expect(within(preview).getByText('3 cambios por aplicar; las filas con errores se omiten.')).toBeInTheDocument();
    expect(within(preview).getByRole('heading', { name: '2 filas con errores (omitidas)' })).toBeInTheDocument();
    const errors = within(preview).getByRole('table', { name: 'Filas con errores' });
    expect(within(errors).getByRole('columnheader', { name: 'Problema' })).toBeInTheDocument();
    expect(within(errors).getByText('email "nope" is not an email address')).toBeInTheDocument();
    expect(within(preview).getByRole('button', { name: 'Descargar CSV de errores' })).toBeInTheDocument();
    expectNoRawKeys();

    await user.click(within(preview).getByRole('button', { name: 'Aplicar…' }));
    const confirm = screen.getByTestId('roster-confirm');
    expect(confirm).toHaveTextContent('¿Aplicar esta lista de inscripción a su distrito?');
    expect(confirm).toHaveTextContent(
      'Usuarios: 1 cuenta por crear, 0 por actualizar y 0 por eliminar (ya no podrán iniciar sesión). Cada cuenta nueva',
    );
    expect(confirm).toHaveTextContent('Clases: 1 por crear, 0 por actualizar y 0 por archivar.');
    expect(confirm).toHaveTextContent('Inscripciones: 2 por agregar y 0 por terminar.');
    expect(confirm).toHaveTextContent('1 fila ya está al día.');
    expect(confirm).toHaveTextContent('2 filas tienen errores y se omitirán.');
    expectNoRawKeys();
    await user.click(within(confirm).getByRole('button', { name: 'Confirmar y aplicar' }));
    const summary = await screen.findByTestId('roster-summary', {}, { timeout: 4000 });
    expect(summary).toHaveTextContent(
      'Importación completa: usuarios nuevos: 1, actualizados: 0, eliminados: 0; clases nuevas: 1, actualizadas: 0, archivadas: 0; inscripciones agregadas: 2, eliminadas: 0. Se omitieron 2 filas.',
    );
    expect(screen.getByRole('heading', { name: 'Importación (lista completa)' })).toBeInTheDocument();
    expectNoRawKeys();
  });

  it('the sign-in settings, and a save the provider refuses (its reason stays as the server sends it)', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    stubFetch({
      'GET /api/district/sso': () => jsonResponse(200, SSO),
      'PUT /api/district/sso': () =>
        jsonResponse(400, {
          message: 'Could not read the OpenID Connect configuration',
          code: 'validation_failed',
          fields: { issuer: 'Discovery failed at https://idp.example/.well-known/openid-configuration' },
        }),
    });
    const { user } = await renderAdmin('sign-in', <AdminSignInSection />);
    expect(screen.getByRole('heading', { name: 'Inicio de sesión', level: 1 })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Inicio de sesión único (SSO)' })).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Conexión SSO' })).toBeInTheDocument();
    expect(screen.getByLabelText('Secreto de cliente')).toHaveAttribute(
      'placeholder',
      'Guardado (cifrado): déjelo vacío para conservarlo',
    );
    expect(screen.getByText(/^Tipo: Google Workspace/)).toBeInTheDocument();
    expect(
      screen.getByRole('group', { name: 'Dominios de correo que inician sesión con este proveedor' }),
    ).toBeInTheDocument();
    expect(
      screen.getByLabelText('Las personas del distrito pueden iniciar sesión con correo y contraseña'),
    ).toBeChecked();
    expectNoRawKeys();
    await user.click(screen.getByRole('button', { name: 'Guardar conexión' }));
    expect(await screen.findByText(/Discovery failed at https:\/\/idp.example/)).toBeInTheDocument();
    expect(await screen.findByText('No se guardó')).toBeInTheDocument();
    expectNoRawKeys();
  });

  it('the integrations: the URLs to give, a dynamic link, the registrations, their form and the failed scores', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    const link = { url: 'https://app.example/api/lti/register?rt=abc123', expiresAt: '2026-02-01T12:00:00.000Z' };
    stubFetch({
      [`GET ${LTI_BASE}`]: () => jsonResponse(200, LTI),
      'POST /api/integrations/lti/registration-links': () => jsonResponse(201, link),
      'GET /api/integrations/lti/score-failures': () => jsonResponse(200, { scores: [SCORE_FAILURE] }),
    });
    const confirm = vi.fn(() => false);
    vi.stubGlobal('confirm', confirm);
    const { user } = await renderAdmin('integrations', <AdminIntegrationsSection />);
    expect(screen.getByRole('heading', { name: 'Integraciones', level: 1 })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Qué darle a su LMS' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copiar URL de inicio de sesión' })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Registros del LMS' });
    expect(within(table).getByRole('columnheader', { name: 'Implementaciones' })).toBeInTheDocument();
    expect(table).toHaveTextContent('Ninguna todavía: edite el registro');
    const failures = await screen.findByTestId('score-failures');
    // The LMS's reason is the server's text, as it came.
    expect(failures).toHaveTextContent('usuario del LMS lms-42 · 1 intento');
    expect(failures).toHaveTextContent('it answered 401');
    expectNoRawKeys();

    await user.click(screen.getByRole('button', { name: 'Crear un enlace de registro dinámico' }));
    const shown = await screen.findByTestId('lti-registration-link');
    expect(within(shown).getByText(/^Solo se muestra ahora\. Se usa una vez; vence el .*2026/)).toBeInTheDocument();
    expect(within(shown).getByRole('button', { name: 'Copiar URL de registro' })).toBeInTheDocument();
    expectNoRawKeys();

    await user.click(screen.getByRole('button', { name: `Eliminar ${REGISTRATION.issuer} ${REGISTRATION.clientId}` }));
    expect(confirm).toHaveBeenCalledWith(
      `¿Eliminar el registro de ${REGISTRATION.issuer} (ID de cliente ${REGISTRATION.clientId})? Dejarán de funcionar los accesos desde él.`,
    );
    await user.click(screen.getByRole('button', { name: 'Agregar un registro a mano' }));
    const form = screen.getByRole('form', { name: 'Nuevo registro del LMS' });
    expect(within(form).getByLabelText('URL de JWKS de la plataforma')).toBeInTheDocument();
    expect(within(form).getByRole('button', { name: 'Agregar registro' })).toBeInTheDocument();
    expectNoRawKeys();
  });

  it('the privacy page: retention, class joins, a student export and deletion, the audit log, the district deletion', async () => {
    document.cookie = 'cp_csrf=t; path=/';
    stubFetch({
      'GET /api/district/privacy': () => jsonResponse(200, { retentionDays: 365, districtName: 'Springfield' }),
      'GET /api/district/class-joins': () => jsonResponse(200, { studentsOwnClassesOnly: false }),
      'GET /api/district/users?role=student&limit=20': () =>
        jsonResponse(200, { users: [PRIVACY_STUDENT], nextCursor: null }),
      'GET /api/district/audit': () => jsonResponse(200, { entries: [AUDIT_ENTRY], nextCursor: 'older' }),
      [`POST /api/district/students/${PRIVACY_STUDENT.id}/exports`]: () => jsonResponse(202, EXPORT_REQUEST),
      [`GET /api/district/privacy/requests/${EXPORT_REQUEST.requestId}`]: () => jsonResponse(200, EXPORT_REQUEST),
    });
    const { user } = await renderAdmin('privacy', <AdminPrivacySection />);
    expect(screen.getByRole('heading', { name: 'Privacidad', level: 1 })).toBeInTheDocument();
    expect(await screen.findByDisplayValue('365')).toHaveAttribute('placeholder', 'Conservar');
    expect(screen.getByRole('heading', { name: 'Conservación' })).toBeInTheDocument();
    expect(
      await screen.findByLabelText('Los estudiantes solo pueden unirse a clases de este distrito'),
    ).not.toBeChecked();
    expect(screen.getByRole('textbox', { name: 'Buscar estudiantes' })).toHaveAttribute(
      'placeholder',
      'Nombre o correo',
    );
    // The audit log's summaries are the server's texts, as they came; the page around them is Spanish.
    const audit = await screen.findByTestId('audit-table');
    expect(within(audit).getByRole('columnheader', { name: 'Qué pasó' })).toBeInTheDocument();
    expect(audit).toHaveTextContent("Tess Teacher viewed a class's results grid (maestro(a))");
    expect(within(audit).getByText('consulta')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Acción' })).toHaveDisplayValue('Cualquier acción');
    expect(screen.getByRole('button', { name: 'Más antiguas' })).toBeEnabled();
    expect(screen.getByLabelText('Escriba «Springfield» para confirmar')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Eliminar distrito' })).toBeDisabled();
    expectNoRawKeys();

    await user.click(await screen.findByRole('button', { name: 'Exportar datos' }));
    expect(await screen.findByTestId('privacy-request')).toHaveTextContent('Listo: exportado en 5 de 5 servicios');
    expect(screen.getByRole('link', { name: 'Documento para la familia (zip)' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ver' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Eliminar estudiante' }));
    expect(screen.getByRole('button', { name: 'Eliminar definitivamente' })).toBeInTheDocument();
    expectNoRawKeys();
  });
});
