import { screen, waitFor, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders } from '../test/test-utils';
import { STUDENT, stubFetch, TEACHER } from '../test/fetchStub';
import { AppRoutes } from './AppRoutes';

function Location() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname}</div>;
}

const signedOut = () => jsonResponse(401, { message: 'Unauthorized', code: 'UNAUTHORIZED' });

function renderApp(route: string) {
  return renderWithProviders(
    <>
      <AppRoutes />
      <Location />
    </>,
    { route },
  );
}

/** GET /api/support-content/{resultId}: one question of support practice. */
const PRACTICE = {
  resultId: 'r1',
  assessmentId: 'a1',
  performanceLevel: 'below',
  type: 'support',
  provider: 'offline',
  reading: 'Cells are the units of life.',
  questions: [{ question: 'What are cells?', type: 'short_answer', options: [] }],
  lastAttempt: null,
};

describe('AppRoutes', () => {
  it('when signed out on /, then the landing page shows', async () => {
    stubFetch({ 'GET /api/auth/user': signedOut });
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Pricing' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Teacher Login' })[0]).toHaveAttribute('href', '/auth?mode=login');
    expect(screen.getByRole('link', { name: 'Teacher Signup' })).toHaveAttribute(
      'href',
      '/auth?mode=signup&role=teacher',
    );
    for (const link of screen.getAllByRole('link', { name: /Start Free Trial|Contact Sales/ })) {
      expect(link).toHaveAttribute('href', '/auth');
    }
    // A pupil with a code goes straight to the code-first join page.
    const joinLinks = screen.getAllByRole('link', { name: 'Join a Class' });
    expect(joinLinks).toHaveLength(2);
    for (const link of joinLinks) expect(link).toHaveAttribute('href', '/join-class');
  });

  it('when signed out, then Join a Class on the landing page opens the join-by-code page', async () => {
    stubFetch({ 'GET /api/auth/user': signedOut });
    renderApp('/');
    (await screen.findAllByRole('link', { name: 'Join a Class' }))[0]!.click();
    expect(await screen.findByRole('heading', { name: 'Join a Class' })).toBeInTheDocument();
    expect(screen.getByLabelText('Class Code')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/join-class$/);
  });

  it('when signed out on a protected page, then the Unauthorized toast shows and /auth follows', async () => {
    stubFetch({ 'GET /api/auth/user': signedOut });
    renderApp('/profile');
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Unauthorized');
    expect(toast).toHaveTextContent('You are logged out. Logging in again...');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/auth'), { timeout: 2000 });
  });

  it('when the path is unknown, then 404 Page Not Found shows', async () => {
    stubFetch({ 'GET /api/auth/user': signedOut });
    renderApp('/no-such-page');
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
  });

  it('when an unknown path is visited signed in, then it falls to 404', async () => {
    stubFetch({ 'GET /api/auth/user': () => jsonResponse(200, TEACHER) });
    renderApp('/no-such-page');
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
  });

  it('when a teacher is signed in on /, then the dashboard heading and teacher links show', async () => {
    stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, TEACHER),
      'GET /api/classes': () => jsonResponse(200, []),
    });
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Assessment Dashboard' })).toBeInTheDocument();
    expect(screen.getByText('Track student progress across formative assessments')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Create Class' })).toBeEnabled();
    const main = screen.getByRole('navigation', { name: 'Main' });
    expect(main).toHaveTextContent('DashboardClassesAssessmentsItem BankStudentsReports');
    expect(within(main).getByRole('link', { name: 'Dashboard' })).toHaveClass('active');
  });

  it('when a teacher follows the Classes link, then the class list opens; the still-English dashboard is marked lang=en, the translated pages are not', async () => {
    stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, TEACHER),
      'GET /api/classes': () => jsonResponse(200, []),
    });
    const { user } = renderApp('/');
    const main = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(main).getByRole('link', { name: 'Classes' })).toHaveAttribute('href', '/classes');
    // The dashboard's texts are still English: marked lang="en" for a Spanish interface; the shell
    // and the Classes page are translated: they take <html lang>.
    const dashboard = await screen.findByRole('heading', { name: 'Assessment Dashboard' });
    expect(dashboard.closest('[lang]')?.getAttribute('lang')).toBe('en');
    expect(main.closest('[lang]')).toBe(document.documentElement);
    await user.click(within(main).getByRole('link', { name: 'Classes' }));
    const classes = await screen.findByRole('heading', { name: 'My Classes' });
    expect(classes.closest('[lang]')).toBe(document.documentElement);
    expect(within(main).getByRole('link', { name: 'Classes' })).toHaveClass('active');
  });

  it('when an admin is signed in, then Admin Dashboard and All Students links show', async () => {
    stubFetch({ 'GET /api/auth/user': () => jsonResponse(200, { ...TEACHER, role: 'admin' }) });
    renderApp('/');
    const main = await screen.findByRole('navigation', { name: 'Main' });
    expect(main).toHaveTextContent('Admin DashboardClassesAssessmentsItem BankAll StudentsReports');
  });

  it('when a teacher visits /admin, then they are sent to / and the admin stats are never asked for', async () => {
    const fetch = stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, TEACHER),
      'GET /api/classes': () => jsonResponse(200, []),
    });
    renderApp('/admin');
    expect(await screen.findByRole('heading', { name: 'Assessment Dashboard' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
    expect(screen.queryByRole('heading', { name: 'Admin Dashboard' })).not.toBeInTheDocument();
    expect(fetch.mock.calls.map(([url]) => String(url))).not.toContain('/api/admin/stats');
  });

  it('when an admin visits /admin, then the Admin Dashboard shows with the district stats', async () => {
    stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, { ...TEACHER, role: 'admin', accountType: 'district' }),
      'GET /api/admin/stats': () =>
        jsonResponse(200, {
          totalUsers: 3,
          totalTeachers: 1,
          totalStudents: 1,
          totalClasses: 0,
          totalAssessments: 0,
          totalResponses: 0,
          recentSignups: [],
          averageScore: 0,
          levels: { below: 0, at: 0, above: 0 },
        }),
    });
    renderApp('/admin');
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard', level: 1 })).toBeInTheDocument();
    expect(await screen.findByTestId('admin-stat-Total Users')).toHaveTextContent('3');
    expect(screen.getByTestId('location')).toHaveTextContent('/admin');
  });

  it('when a student is signed in, then Dashboard and Join Class links show', async () => {
    stubFetch({ 'GET /api/auth/user': () => jsonResponse(200, STUDENT) });
    renderApp('/');
    const main = await screen.findByRole('navigation', { name: 'Main' });
    expect(main).toHaveTextContent('DashboardJoin Class');
    expect(screen.getAllByTestId('avatar-initials')[0]).toHaveTextContent('SS');
  });

  it('when the user prefers dark mode, then <html> gets data-bs-theme="dark"', async () => {
    stubFetch({
      'GET /api/auth/user': () =>
        jsonResponse(200, { ...TEACHER, preferences: { ...TEACHER.preferences, darkMode: true } }),
    });
    renderApp('/');
    await waitFor(() => expect(document.documentElement).toHaveAttribute('data-bs-theme', 'dark'));
  });

  it("when a teacher follows a student's /support-content link, then the practice opens on the teachers' /interactive-support path", async () => {
    stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, TEACHER),
      'GET /api/support-content/r1': () => jsonResponse(200, PRACTICE),
    });
    renderApp('/support-content/r1');
    expect(await screen.findByRole('heading', { name: 'Support Practice' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/interactive-support/r1');
  });

  it('when a student follows an /interactive-support link, then their practice opens at /support-content', async () => {
    stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, STUDENT),
      'GET /api/support-content/r1': () => jsonResponse(200, PRACTICE),
    });
    renderApp('/interactive-support/r1');
    expect(await screen.findByRole('heading', { name: 'Support Practice' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/support-content/r1');
    expect(screen.getByText('Question 1 of 1')).toBeInTheDocument();
  });
});
