import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { STUDENT, stubFetch, TEACHER } from '../../test/fetchStub';
import { authApi } from '../../session/authApi';
import { ProfilePage } from './ProfilePage';
import { useLocale } from '../../routes/useLocale';
import { useAuth } from '../../session/useAuth';

/** The app's language follows the signed-in user's locale (AppRoutes does the same). */
function WithLocale() {
  useLocale(useAuth().user);
  return <ProfilePage />;
}

async function signedInStore(user: typeof TEACHER | typeof STUDENT) {
  const store = makeStore();
  await store.dispatch(authApi.util.upsertQueryData('getCurrentUser', undefined, user));
  return store;
}

describe('ProfilePage', () => {
  it('when the class and assessment services answer 503, then both stats read — and no toast shows', async () => {
    stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, TEACHER),
      'GET /api/classes': () => jsonResponse(503, { message: 'classes is unavailable', code: 'UNAVAILABLE' }),
      'GET /api/assessments': () => jsonResponse(503, { message: 'assessments is unavailable', code: 'UNAVAILABLE' }),
    });
    const store = await signedInStore(TEACHER);
    renderWithProviders(<ProfilePage />, { store });
    expect(screen.getByRole('heading', { name: 'Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getByText('Teacher')).toBeInTheDocument();
    expect(screen.getByText('March 5, 2024')).toBeInTheDocument();
    expect(screen.getByText('Individual')).toBeInTheDocument();
    await waitFor(() => expect(store.getState().api.queries['getClasses(undefined)']?.status).toBe('rejected'));
    expect(screen.getByTestId('stat-Classes')).toHaveTextContent('—');
    expect(screen.getByTestId('stat-Assessments')).toHaveTextContent('—');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit Profile' })).toHaveAttribute('href', '/settings');
    // Change Password works now: it opens the modal (ChangePasswordModal, PasswordPages.test.tsx).
    expect(screen.getByRole('button', { name: 'Change Password' })).toBeEnabled();
  });

  it('when a student has classes and results, then their counts show', async () => {
    stubFetch({
      'GET /api/student/classes': () => jsonResponse(200, [{ id: 'e1' }, { id: 'e2' }]),
      'GET /api/student/results': () => jsonResponse(200, [{ id: 'r1' }]),
    });
    const store = await signedInStore(STUDENT);
    renderWithProviders(<ProfilePage />, { store });
    expect(screen.getByText('Student')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('stat-Classes')).toHaveTextContent('2'));
    expect(screen.getByTestId('stat-Assessments Taken')).toHaveTextContent('1');
  });

  it('when the user picks Español, then the locale is saved and the page and <html lang> turn Spanish', async () => {
    const saved: unknown[] = [];
    stubFetch({
      'GET /api/classes': () => jsonResponse(200, []),
      'GET /api/assessments': () => jsonResponse(200, []),
      'PUT /api/auth/user': (init) => {
        const body = JSON.parse(String(init?.body)) as { locale: string };
        saved.push(body);
        return jsonResponse(200, { ...TEACHER, locale: body.locale, emailVerified: true });
      },
    });
    const store = await signedInStore({ ...TEACHER, locale: 'en' } as typeof TEACHER);
    const { user } = renderWithProviders(<WithLocale />, { store });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'es');
    expect(await screen.findByRole('heading', { name: 'Perfil' })).toBeInTheDocument();
    expect(saved).toEqual([{ locale: 'es' }]);
    expect(document.documentElement.lang).toBe('es');
    expect(screen.getByRole('combobox', { name: 'Idioma' })).toHaveValue('es');
    // Dates in Spanish too (Intl with es-US).
    expect(screen.getByText('5 de marzo de 2024')).toBeInTheDocument();
  });
});
