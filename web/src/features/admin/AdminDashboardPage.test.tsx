import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch, TEACHER } from '../../test/fetchStub';
import { authApi } from '../../session/authApi';
import type { AdminStats } from '../results';
import { AdminDashboardPage } from './AdminDashboardPage';

const ADMIN = {
  ...TEACHER,
  id: 'a1',
  firstName: 'Ann',
  lastName: 'Admin',
  role: 'admin' as const,
  accountType: 'district' as const,
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

async function renderPage() {
  const store = makeStore();
  await store.dispatch(authApi.util.upsertQueryData('getCurrentUser', undefined, ADMIN));
  return renderWithProviders(<AdminDashboardPage />, { store, route: '/admin' });
}

describe('AdminDashboardPage', () => {
  it("when the district's stats load, then the stat cards, performance and recent signups show", async () => {
    stubFetch({ 'GET /api/admin/stats': () => jsonResponse(200, STATS) });
    await renderPage();
    expect(screen.getByRole('heading', { name: 'Admin Dashboard', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('An overview of your district')).toBeInTheDocument();
    expect(await screen.findByTestId('admin-stat-Total Users')).toHaveTextContent('42');
    for (const [label, value] of [
      ['Teachers', '5'],
      ['Students', '36'],
      ['Classes', '7'],
      ['Assessments', '12'],
      ['Responses', '90'],
    ]) {
      expect(screen.getByTestId(`admin-stat-${label}`)).toHaveTextContent(value!);
    }
    expect(screen.getByTestId('admin-average-score')).toHaveTextContent('77%');
    expect(screen.getByTestId('admin-level-Above Standard')).toHaveTextContent('20 (22%)');
    expect(screen.getByTestId('admin-level-At Standard')).toHaveTextContent('40 (44%)');
    expect(screen.getByTestId('admin-level-Below Standard')).toHaveTextContent('30 (33%)');

    const signups = within(screen.getByRole('list', { name: 'Recent signups' })).getAllByRole('listitem');
    expect(signups).toHaveLength(2);
    expect(signups[0]).toHaveTextContent('Sam Student');
    expect(signups[0]).toHaveTextContent('sam@demo.checkpoint.school');
    expect(within(signups[0]!).getByText('Student')).toHaveClass('badge', 'bg-success');
    expect(signups[0]).toHaveTextContent('Mar 5, 2024');
    expect(within(signups[1]!).getByText('Teacher')).toHaveClass('badge', 'bg-primary');
  });

  it('when the page shows, then the free-trial note, real management links and what the email notifications do are there', async () => {
    stubFetch({ 'GET /api/admin/stats': () => jsonResponse(200, { ...STATS, recentSignups: [] }) });
    await renderPage();
    expect(await screen.findByText('No sign-ups yet.')).toBeInTheDocument();
    expect(screen.getByTestId('free-trial-note')).toHaveTextContent('Free trial users get 10 checkpoints.');
    expect(screen.getByTestId('free-trial-note')).toHaveTextContent('up to 3 classes and 50 students in total');
    for (const [name, href] of [
      ['Manage Users', '/admin/users'],
      ['Manage Classes', '/classes'],
      ['Manage Assessments', '/assessments'],
      ['View All Students', '/students'],
      ['View Reports', '/reports'],
    ]) {
      expect(screen.getByRole('link', { name })).toHaveAttribute('href', href);
    }
    const email = screen.getByTestId('email-status');
    expect(within(email).getByRole('heading', { name: 'Email Notifications' })).toBeInTheDocument();
    expect(email).toHaveTextContent('at most one digest email per period');
    expect(email).toHaveTextContent('Assessment Reminders (students): assessments due within 24 hours, once each.');
    expect(within(email).queryByRole('checkbox')).not.toBeInTheDocument();
    expect(within(email).queryByRole('button')).not.toBeInTheDocument();
  });

  it('when there are no results yet, then the average score reads — and every level 0 (0%)', async () => {
    stubFetch({
      'GET /api/admin/stats': () =>
        jsonResponse(200, { ...STATS, totalResponses: 0, averageScore: 0, levels: { below: 0, at: 0, above: 0 } }),
    });
    await renderPage();
    expect(await screen.findByTestId('admin-average-score')).toHaveTextContent('—');
    expect(screen.getByTestId('admin-level-At Standard')).toHaveTextContent('0 (0%)');
  });

  it('when the stats call fails, then its message shows and the rest of the page stays', async () => {
    stubFetch({
      'GET /api/admin/stats': () => jsonResponse(503, { message: 'analytics is unavailable', code: 'UNAVAILABLE' }),
    });
    await renderPage();
    expect(await screen.findByText('analytics is unavailable')).toBeInTheDocument();
    expect(screen.queryByTestId('admin-stat-Total Users')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Manage Classes' })).toBeInTheDocument();
  });
});
