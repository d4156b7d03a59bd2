// The district admin's screens rendered in Spanish (admin namespace): the sections' tabs, the
// dashboard, the users page with its invite dialog and remove confirm, the roster import, the
// sign-in settings, the integrations and the privacy page with its audit log. No raw key, and the
// Spanish text each screen is known to say. The names, e-mails and server texts stay as they are.
import 'fake-indexeddb/auto';
import { screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { makeStore } from '../app/store';
import { AdminDashboardPage } from '../features/admin/AdminDashboardPage';
import { AdminLayout } from '../features/admin/AdminLayout';
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

inSpanish();

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
});
