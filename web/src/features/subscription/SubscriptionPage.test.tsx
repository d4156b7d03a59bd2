import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { STUDENT, stubFetch, TEACHER } from '../../test/fetchStub';
import { authApi } from '../../session/authApi';
import type { User } from '../../session/user';
import { SubscriptionPage } from './SubscriptionPage';

async function renderAs(user: User) {
  const store = makeStore();
  await store.dispatch(authApi.util.upsertQueryData('getCurrentUser', undefined, user));
  return renderWithProviders(<SubscriptionPage />, { store });
}

const usageSection = () => screen.getByRole('region', { name: 'Usage' });

describe('SubscriptionPage', () => {
  it('when a teacher with their own account has 1 class, no students and 1 assessment, then the Free Trial usage shows what is left', async () => {
    stubFetch({ 'GET /api/dashboard/usage': () => jsonResponse(200, { classes: 1, students: 0, assessments: 1 }) });
    const { user } = await renderAs(TEACHER);
    expect(await screen.findByTestId('usage-classes')).toHaveTextContent('1 class created (2 remaining)');
    expect(screen.getByTestId('usage-students')).toHaveTextContent('0 students (50 remaining)');
    expect(screen.getByTestId('usage-assessments')).toHaveTextContent('1 assessment (unlimited)');
    expect(within(screen.getByTestId('usage-classes-bar')).getByRole('progressbar', { hidden: true })).toHaveAttribute(
      'aria-valuenow',
      '1',
    );
    expect(screen.queryByTestId('usage-assessments-bar')).not.toBeInTheDocument();
    expect(screen.getByText('14 days remaining')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Current Plan' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Upgrade Plan' }));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Upgrade Available');
    expect(toast).toHaveTextContent('Professional plan features coming soon! Contact support for early access.');
  });

  it('when the Free Trial limits are reached (or passed), then nothing is left and the counts are plural', async () => {
    stubFetch({ 'GET /api/dashboard/usage': () => jsonResponse(200, { classes: 3, students: 57, assessments: 12 }) });
    await renderAs(TEACHER);
    expect(await screen.findByTestId('usage-classes')).toHaveTextContent('3 classes created (0 remaining)');
    expect(screen.getByTestId('usage-students')).toHaveTextContent('57 students (0 remaining)');
    expect(screen.getByTestId('usage-assessments')).toHaveTextContent('12 assessments (unlimited)');
  });

  it("when the teacher belongs to a district, then the district's plan shows without limits", async () => {
    stubFetch({ 'GET /api/dashboard/usage': () => jsonResponse(200, { classes: 5, students: 120, assessments: 1 }) });
    await renderAs({ ...TEACHER, accountType: 'district' });
    expect(await screen.findByTestId('usage-classes')).toHaveTextContent('5 classes created (unlimited)');
    expect(screen.getByTestId('usage-students')).toHaveTextContent('120 students (unlimited)');
    expect(screen.getByText('District Plan')).toBeInTheDocument();
    expect(screen.queryByText('14 days remaining')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Current Plan' })).not.toBeInTheDocument();
    expect(within(usageSection()).queryByRole('progressbar', { hidden: true })).not.toBeInTheDocument();
  });

  it('when the usage call fails, then the panel says so instead of showing numbers', async () => {
    stubFetch({
      'GET /api/dashboard/usage': () => jsonResponse(503, { message: 'analytics is unavailable', code: 'UNAVAILABLE' }),
    });
    await renderAs(TEACHER);
    expect(await screen.findByText('Usage is not available right now.')).toBeInTheDocument();
    expect(screen.queryByTestId('usage-classes')).not.toBeInTheDocument();
  });

  it('when a student opens the page, then no usage is asked for', async () => {
    const fetch = stubFetch({});
    await renderAs(STUDENT);
    expect(screen.getByRole('heading', { name: 'Subscription & Billing' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Usage' })).not.toBeInTheDocument();
    expect(fetch.mock.calls.map(([url]) => String(url))).not.toContain('/api/dashboard/usage');
  });
});
