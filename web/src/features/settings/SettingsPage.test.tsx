import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { STUDENT, stubFetch, TEACHER } from '../../test/fetchStub';
import { authApi } from '../../session/authApi';
import { SettingsPage } from './SettingsPage';

async function setup(user: typeof TEACHER | typeof STUDENT = TEACHER) {
  const store = makeStore();
  await store.dispatch(authApi.util.upsertQueryData('getCurrentUser', undefined, user));
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

  it('when the email changes, then the current password is asked, sent, and the toast says the change waits for the link', async () => {
    const fetchMock = stubFetch({
      'PUT /api/auth/user': () => jsonResponse(200, { ...TEACHER, pendingEmail: 'new@example.com' }),
    });
    const store = await setup();
    const { user } = renderWithProviders(<SettingsPage />, { store });
    expect(screen.queryByLabelText('Current Password')).not.toBeInTheDocument();
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'new@example.com');
    expect(screen.getByText(/Changing your email needs your current password/)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Current Password'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Confirm your new email')).toBeInTheDocument();
    expect(
      screen.getByText(
        'We sent a link to new@example.com. Your email changes when you open it; until then you sign in with ada@example.com.',
      ),
    ).toBeInTheDocument();
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'new@example.com',
      currentPassword: 'correct horse',
    });
    // The form shows the address in use again, and the one waiting for its link.
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByTestId('pending-email')).toHaveTextContent('new@example.com');
  });

  it('when the current password is wrong, then the field says so', async () => {
    stubFetch({
      'PUT /api/auth/user': () =>
        jsonResponse(400, {
          message: 'Current password is incorrect',
          code: 'VALIDATION',
          fields: { currentPassword: 'Current password is incorrect' },
        }),
    });
    const store = await setup();
    const { user } = renderWithProviders(<SettingsPage />, { store });
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'new@example.com');
    await user.type(screen.getByLabelText('Current Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Update Failed');
    expect(screen.getByLabelText('Current Password')).toHaveAttribute('aria-invalid', 'true');
  });

  it('when a switch is toggled, then only that switch is sent and it follows', async () => {
    const fetchMock = stubFetch({
      'PATCH /api/auth/user/preferences': (init) =>
        jsonResponse(200, { ...TEACHER, preferences: { ...TEACHER.preferences, ...JSON.parse(String(init?.body)) } }),
    });
    const store = await setup();
    const { user } = renderWithProviders(<SettingsPage />, { store });
    expect(screen.getByLabelText('Student Submissions')).toBeChecked();
    await user.click(screen.getByLabelText('Email Notifications'));
    await waitFor(() => expect(screen.getByLabelText('Email Notifications')).toBeChecked());
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({ emailNotifications: true });
  });

  it('when a student opens settings, then only the student switches show: no Student Submissions', async () => {
    stubFetch({});
    const store = await setup(STUDENT);
    renderWithProviders(<SettingsPage />, { store });
    expect(screen.getAllByRole('checkbox').map((s) => s.getAttribute('id'))).toEqual([
      'pref-emailNotifications',
      'pref-assessmentReminders',
      'pref-darkMode',
    ]);
    expect(screen.queryByLabelText('Student Submissions')).not.toBeInTheDocument();
    expect(screen.getByText('Receive email updates about your classes: new assessments.')).toBeInTheDocument();
  });

  it('when a teacher opens settings, then Student Submissions shows and the student-only reminders do not', async () => {
    stubFetch({});
    const store = await setup(TEACHER);
    renderWithProviders(<SettingsPage />, { store });
    expect(screen.getByLabelText('Student Submissions')).toBeInTheDocument();
    expect(screen.queryByLabelText('Assessment Reminders')).not.toBeInTheDocument();
    expect(screen.getByText('Receive email updates about your classes: students who join.')).toBeInTheDocument();
  });

  /** A student's Assessment Reminders is switched first and its reply held back; Dark Mode is switched and saved. */
  async function twoSavesFirstHeld() {
    let answerFirst: (response: Response) => void = () => undefined;
    const replies = [
      new Promise<Response>((resolve) => (answerFirst = resolve)),
      Promise.resolve(jsonResponse(200, { ...STUDENT, preferences: { ...STUDENT.preferences, darkMode: true } })),
    ];
    const fetchMock = stubFetch({ 'PATCH /api/auth/user/preferences': () => replies.shift()! });
    const store = await setup(STUDENT);
    const { user } = renderWithProviders(<SettingsPage />, { store });
    await user.click(screen.getByLabelText('Assessment Reminders'));
    expect(screen.getByLabelText('Assessment Reminders')).toBeDisabled();
    await user.click(screen.getByLabelText('Dark Mode'));
    // Dark Mode's own save sent and answered (enabled again, still on), the first still held.
    await waitFor(() => {
      expect(fetchMock).toHaveBeenCalledTimes(2);
      expect(replies).toHaveLength(0);
      expect(screen.getByLabelText('Dark Mode')).toBeEnabled();
      expect(screen.getByLabelText('Dark Mode')).toBeChecked();
    });
    expect(screen.getByLabelText('Assessment Reminders')).toBeDisabled();
    return answerFirst;
  }

  it('when a second switch changes before the first save answers, then both stay as set', async () => {
    const answerFirst = await twoSavesFirstHeld();
    // The first reply was written before dark mode was saved; it must not switch dark mode off again.
    answerFirst(jsonResponse(200, { ...STUDENT, preferences: { ...STUDENT.preferences, assessmentReminders: true } }));
    await waitFor(() => expect(screen.getByLabelText('Assessment Reminders')).toBeEnabled());
    expect(screen.getByLabelText('Assessment Reminders')).toBeChecked();
    expect(screen.getByLabelText('Dark Mode')).toBeChecked();
  });

  it('when the first of two switch saves fails, then only that switch goes back', async () => {
    const failFirst = await twoSavesFirstHeld();
    failFirst(new Response('', { status: 500, statusText: 'Oops' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to update settings');
    expect(screen.getByLabelText('Assessment Reminders')).not.toBeChecked();
    expect(screen.getByLabelText('Dark Mode')).toBeChecked();
  });

  it('when a switch changes while the account form saves, then the account reply does not turn it back', async () => {
    let answerProfile: (response: Response) => void = () => undefined;
    stubFetch({
      'PUT /api/auth/user': () => new Promise<Response>((resolve) => (answerProfile = resolve)),
      'PATCH /api/auth/user/preferences': () =>
        jsonResponse(200, { ...TEACHER, preferences: { ...TEACHER.preferences, darkMode: true } }),
    });
    const store = await setup();
    const { user } = renderWithProviders(<SettingsPage />, { store });
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await user.click(screen.getByLabelText('Dark Mode'));
    await waitFor(() => expect(screen.getByLabelText('Dark Mode')).toBeEnabled());
    answerProfile(jsonResponse(200, { ...TEACHER, firstName: 'Augusta' }));
    expect(await screen.findByText('Settings Updated')).toBeInTheDocument();
    expect(store.getState().api.queries['getCurrentUser(undefined)']?.data).toMatchObject({ firstName: 'Augusta' });
    expect(screen.getByLabelText('Dark Mode')).toBeChecked();
  });

  it('when saving a switch fails, then it goes back and Update Failed shows the fallback', async () => {
    stubFetch({ 'PATCH /api/auth/user/preferences': () => new Response('', { status: 500, statusText: 'Oops' }) });
    const store = await setup();
    const { user } = renderWithProviders(<SettingsPage />, { store });
    await user.click(screen.getByLabelText('Dark Mode'));
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('Failed to update settings');
    expect(screen.getByLabelText('Dark Mode')).not.toBeChecked();
  });
});
