import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch, TEACHER } from '../../test/fetchStub';
import { authApi } from '../auth/authApi';
import { SettingsPage } from './SettingsPage';

async function setup() {
  const store = makeStore();
  await store.dispatch(authApi.util.upsertQueryData('getCurrentUser', undefined, TEACHER));
  document.cookie = 'cp_csrf=t; path=/';
  return store;
}

describe('SettingsPage', () => {
  it('when the account form saves, then the Settings Updated toast shows', async () => {
    const fetchMock = stubFetch({
      'PUT /api/auth/user': (init) => jsonResponse(200, { ...TEACHER, ...JSON.parse(String(init?.body)) }),
    });
    const store = await setup();
    const { user } = renderWithProviders(<SettingsPage />, { store });
    await user.clear(screen.getByLabelText('First Name'));
    await user.type(screen.getByLabelText('First Name'), 'Augusta');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Settings Updated')).toBeInTheDocument();
    expect(await screen.findByText('Your profile has been updated successfully.')).toBeInTheDocument();
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      firstName: 'Augusta',
      lastName: 'Lovelace',
      email: 'ada@example.com',
    });
  });

  it('when the email is taken, then Update Failed shows the server message', async () => {
    stubFetch({
      'PUT /api/auth/user': () =>
        jsonResponse(409, { message: 'An account with this email already exists', code: 'CONFLICT' }),
    });
    const store = await setup();
    const { user } = renderWithProviders(<SettingsPage />, { store });
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Update Failed');
    expect(toast).toHaveTextContent('An account with this email already exists');
  });

  it('when a switch is toggled, then all four preferences are sent and the switch follows', async () => {
    const fetchMock = stubFetch({
      'PUT /api/auth/user/preferences': (init) =>
        jsonResponse(200, { ...TEACHER, preferences: JSON.parse(String(init?.body)) }),
    });
    const store = await setup();
    const { user } = renderWithProviders(<SettingsPage />, { store });
    expect(screen.getByLabelText('Student Submissions')).toBeChecked();
    await user.click(screen.getByLabelText('Email Notifications'));
    await waitFor(() => expect(screen.getByLabelText('Email Notifications')).toBeChecked());
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      emailNotifications: true,
      assessmentReminders: false,
      studentSubmissions: true,
      darkMode: false,
    });
  });

  it('when saving a switch fails, then it goes back and Update Failed shows the fallback', async () => {
    stubFetch({ 'PUT /api/auth/user/preferences': () => new Response('', { status: 500, statusText: 'Oops' }) });
    const store = await setup();
    const { user } = renderWithProviders(<SettingsPage />, { store });
    await user.click(screen.getByLabelText('Dark Mode'));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Failed to update settings');
    expect(screen.getByLabelText('Dark Mode')).not.toBeChecked();
  });
});
