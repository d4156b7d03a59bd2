import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../test/fetchStub';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { StudentLoginsSection } from './StudentLoginsSection';
import type { StudentLogin, StudentLogins } from './studentLoginsApi';

vi.mock('qrcode', () => ({
  toString: (url: string) => Promise.resolve(`<svg data-url="${url}"></svg>`),
}));

afterEach(() => {
  vi.restoreAllMocks();
});

const MAYA: StudentLogin = {
  id: 's1',
  firstName: 'Maya',
  lastName: 'Rivera',
  username: 'maya.r',
  signInWith: 'picture',
  createdAt: '2026-11-01T10:00:00.000Z',
  signInChangedAt: '2026-11-01T10:00:00.000Z',
};

function renderSection(initial: StudentLogin[] = [MAYA]) {
  let state: StudentLogins = {
    classCode: 'ABC123',
    students: initial,
    withoutSignIn: [],
    cards: { inForce: 0, expiresAt: null },
  };
  const fetch = stubFetch({
    'GET /api/classes/c1/student-logins': () => jsonResponse(200, state),
    'POST /api/classes/c1/student-logins': (init) => {
      const body = JSON.parse(String(init?.body)) as { firstName: string; lastName: string; username: string };
      if (body.username === 'taken')
        return jsonResponse(409, {
          code: 'username_taken',
          message: 'This username is taken in your district. Choose another.',
        });
      const made = { ...MAYA, id: 's2', ...body, username: body.username.toLowerCase() };
      state = { ...state, students: [...state.students, made] };
      return jsonResponse(201, made);
    },
    'PUT /api/classes/c1/student-logins/s1/secret': () => jsonResponse(200, { ...MAYA, signInWith: 'words' }),
    'POST /api/classes/c1/login-cards': () => {
      state = { ...state, cards: { inForce: 1, expiresAt: '2027-05-28T10:00:00.000Z' } };
      return jsonResponse(201, {
        classCode: 'ABC123',
        cards: [
          {
            studentId: 's1',
            firstName: 'Maya',
            lastName: 'Rivera',
            username: 'maya.r',
            url: 'https://checkpoint.example/login-card#secret-1',
            expiresAt: '2027-05-28T10:00:00.000Z',
          },
        ],
      });
    },
    'DELETE /api/classes/c1/login-cards': () => {
      state = { ...state, cards: { inForce: 0, expiresAt: null } };
      return jsonResponse(200, { revoked: 1 });
    },
  });
  return { fetch, ...renderWithProviders(<StudentLoginsSection classId="c1" className="2nd grade" />) };
}

const bodyOf = (fetch: ReturnType<typeof stubFetch>, method: string, path: string) => {
  const call = fetch.mock.calls.find(([url, init]) => init?.method === method && String(url) === path);
  return JSON.parse(String(call?.[1]?.body)) as unknown;
};

describe('StudentLoginsSection', () => {
  it('lists the class code and the students without email', async () => {
    renderSection();
    const table = await screen.findByRole('table', { name: 'Student logins' });
    expect(within(table).getByRole('rowheader', { name: 'Maya Rivera' })).toBeInTheDocument();
    expect(within(table).getByText('maya.r')).toBeInTheDocument();
    expect(within(table).getByText('A picture')).toBeInTheDocument();
    expect(screen.getByText('ABC123')).toBeInTheDocument();
  });

  it('adds a student with a picture; a taken username shows the server message', async () => {
    const { user, fetch } = renderSection();
    await user.click(await screen.findByRole('button', { name: 'Add a student without email' }));
    const form = screen.getByRole('form', { name: 'Add a student without email' });
    await user.type(within(form).getByLabelText('First name'), 'Leo');
    await user.type(within(form).getByLabelText('Last name'), 'Park');
    await user.type(within(form).getByLabelText('Username'), 'taken');
    await user.click(within(form).getByRole('button', { name: 'Add student' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Pick a picture');
    await user.click(within(form).getByRole('button', { name: 'tree' }));
    expect(within(form).getByRole('button', { name: 'tree' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(form).getByRole('button', { name: 'Add student' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('This username is taken in your district');
    await user.clear(within(form).getByLabelText('Username'));
    await user.type(within(form).getByLabelText('Username'), 'Leo.P');
    await user.click(within(form).getByRole('button', { name: 'Add student' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Leo can now sign in with the class code (leo.p)');
    expect(await screen.findByRole('rowheader', { name: 'Leo Park' })).toBeInTheDocument();
    const calls = fetch.mock.calls.filter(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(calls.at(-1)?.[1]?.body))).toEqual({
      firstName: 'Leo',
      lastName: 'Park',
      username: 'Leo.P',
      secret: { kind: 'picture', picture: 'tree' },
    });
  });

  it("resets a student's password to two words", async () => {
    const { user, fetch } = renderSection();
    await user.click(await screen.findByRole('button', { name: 'Reset the password of Maya Rivera' }));
    const form = screen.getByRole('form', { name: 'New password for Maya Rivera' });
    await user.click(within(form).getByLabelText('Two words'));
    const words = within(form).getByLabelText('Their two words');
    await user.clear(words);
    await user.type(words, 'Red  Kite');
    await user.click(within(form).getByRole('button', { name: 'Save new password' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Maya Rivera now signs in with the words "red kite"');
    expect(bodyOf(fetch, 'PUT', '/api/classes/c1/student-logins/s1/secret')).toEqual({
      secret: { kind: 'words', words: 'red kite' },
    });
  });

  it("prints the class's login cards with a QR each, then revokes them", async () => {
    const { user } = renderSection();
    await user.click(await screen.findByRole('button', { name: 'Print login cards' }));
    const card = await screen.findByRole('listitem', { name: 'Login card of Maya Rivera' });
    expect(within(card).getByText('ABC123')).toBeInTheDocument();
    expect(within(card).getByText('maya.r')).toBeInTheDocument();
    const qr = await within(card).findByRole('img', { name: 'QR code to sign in as Maya' });
    expect(qr.innerHTML).toContain('https://checkpoint.example/login-card#secret-1');
    expect(screen.getByText(/they are shown only once/)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText(/1 printed card sign in until/)).toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Revoke login cards' }));
    expect(await screen.findByRole('status')).toHaveTextContent('1 login card no longer works');
    expect(screen.queryByRole('listitem', { name: 'Login card of Maya Rivera' })).not.toBeInTheDocument();
  });
});
