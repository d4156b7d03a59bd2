import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { makeStore } from '../../app/store';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch, TEACHER } from '../../test/fetchStub';
import { authApi } from '../../session/authApi';
import { AdminLayout } from './AdminLayout';
import { AdminSignInSection } from './AdminSections';
import { DistrictUsersPage } from './DistrictUsersPage';
import type { District, DistrictUser } from './districtApi';

const ADMIN = {
  ...TEACHER,
  id: 'me',
  firstName: 'Ann',
  lastName: 'Admin',
  role: 'admin' as const,
  accountType: 'district' as const,
};

const DISTRICT: District = {
  id: 't1',
  name: 'Maple District',
  kind: 'district',
  emailDomains: ['maple.example.org'],
  passwordSignIn: true,
  counts: { admin: 1, teacher: 1, student: 1, disabled: 0 },
};

const user = (over: Partial<DistrictUser>): DistrictUser => ({
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
  user({ id: 'me', email: 'ann@maple.example.org', firstName: 'Ann', lastName: 'Admin', role: 'admin' }),
  user({ id: 't2', email: 'tom@maple.example.org', firstName: 'Tom', lastName: 'Teach', role: 'teacher' }),
  user({
    id: 's3',
    email: 'sam@maple.example.org',
    firstName: 'Sam',
    lastName: 'Stu',
    role: 'student',
    source: 'roster',
    emailVerified: false,
  }),
];

async function renderAt(route: string) {
  const store = makeStore();
  await store.dispatch(authApi.util.upsertQueryData('getCurrentUser', undefined, ADMIN));
  return renderWithProviders(
    <Routes>
      <Route path="/admin" element={<AdminLayout />}>
        <Route index element={<p>Overview here</p>} />
        <Route path="users" element={<DistrictUsersPage />} />
        <Route path="sign-in" element={<AdminSignInSection />} />
      </Route>
    </Routes>,
    { store, route },
  );
}

const bodyOf = (init: RequestInit | undefined) => JSON.parse(String(init?.body)) as unknown;

describe('/admin sections', () => {
  it('when an admin opens /admin/users, then the tabs link to each section with Users current', async () => {
    stubFetch({
      'GET /api/district': () => jsonResponse(200, DISTRICT),
      'GET /api/district/users?limit=50': () => jsonResponse(200, { users: USERS, nextCursor: null }),
      'GET /api/district/invitations': () => jsonResponse(200, { invitations: [] }),
    });
    await renderAt('/admin/users');
    const tabs = screen.getByRole('navigation', { name: 'Admin sections' });
    for (const [name, href] of [
      ['Overview', '/admin'],
      ['Users', '/admin/users'],
      ['Sign-in', '/admin/sign-in'],
      ['Roster', '/admin/roster'],
      ['Integrations', '/admin/integrations'],
      ['Standards', '/admin/standards'],
      ['Common assessments', '/admin/common-assessments'],
      ['Privacy', '/admin/privacy'],
    ])
      expect(within(tabs).getByRole('link', { name })).toHaveAttribute('href', href);
    expect(within(tabs).getByRole('link', { name: 'Users' })).toHaveClass('active');
    expect(within(tabs).getByRole('link', { name: 'Overview' })).not.toHaveClass('active');
  });

  it('when the sign-in section shows, then its heading and the sign-in settings are there', async () => {
    stubFetch({});
    await renderAt('/admin/sign-in');
    expect(screen.getByRole('heading', { name: 'Sign-in', level: 1 })).toBeInTheDocument();
    // The settings' own call is not stubbed (404): its error shows inside the section.
    expect(await screen.findByRole('alert')).toHaveTextContent('Not found');
  });
});

describe('DistrictUsersPage', () => {
  it('when the users load, then each shows with role, status and source, and only others get actions', async () => {
    stubFetch({
      'GET /api/district': () => jsonResponse(200, DISTRICT),
      'GET /api/district/users?limit=50': () => jsonResponse(200, { users: USERS, nextCursor: null }),
      'GET /api/district/invitations': () => jsonResponse(200, { invitations: [] }),
    });
    await renderAt('/admin/users');
    const table = await screen.findByRole('table', { name: 'District users' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('Ann Admin (you)');
    expect(within(rows[0]!).queryByRole('button')).not.toBeInTheDocument();
    expect(within(rows[1]!).getByRole('button', { name: 'Make Tom Teach an admin' })).toBeInTheDocument();
    expect(within(rows[1]!).getByRole('button', { name: 'Remove Tom Teach' })).toBeInTheDocument();
    // A student never becomes staff: no promote button.
    expect(within(rows[2]!).queryByRole('button', { name: /admin/ })).not.toBeInTheDocument();
    expect(rows[2]).toHaveTextContent('email not verified');
    expect(rows[2]).toHaveTextContent('Roster');
    expect(screen.getByTestId('district-counts')).toHaveTextContent('1 admins · 1 teachers · 1 students');
  });

  it('when the admin searches and filters by role, then the query carries them', async () => {
    const fetchMock = stubFetch({
      'GET /api/district': () => jsonResponse(200, DISTRICT),
      'GET /api/district/users?limit=50': () => jsonResponse(200, { users: USERS, nextCursor: null }),
      'GET /api/district/users?search=tom&limit=50': () => jsonResponse(200, { users: [USERS[1]], nextCursor: null }),
      'GET /api/district/users?search=tom&role=teacher&limit=50': () =>
        jsonResponse(200, { users: [USERS[1]], nextCursor: null }),
      'GET /api/district/invitations': () => jsonResponse(200, { invitations: [] }),
    });
    const { user: u } = await renderAt('/admin/users');
    await screen.findByRole('table', { name: 'District users' });
    await u.type(screen.getByRole('searchbox', { name: 'Search users' }), 'tom');
    await u.selectOptions(screen.getByRole('combobox', { name: 'Filter by role' }), 'teacher');
    await waitFor(() =>
      expect(fetchMock.mock.calls.map((c) => String(c[0]))).toContain(
        '/api/district/users?search=tom&role=teacher&limit=50',
      ),
    );
    await waitFor(() => expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(2));
  });

  it('when the admin removes a teacher, then a confirm explains what happens and DELETE is sent only after it', async () => {
    let deleted = '';
    stubFetch({
      'GET /api/district': () => jsonResponse(200, DISTRICT),
      'GET /api/district/users?limit=50': () => jsonResponse(200, { users: USERS, nextCursor: null }),
      'GET /api/district/invitations': () => jsonResponse(200, { invitations: [] }),
      'DELETE /api/district/users/t2': () => {
        deleted = 't2';
        return new Response(null, { status: 204 });
      },
    });
    const { user: u } = await renderAt('/admin/users');
    await u.click(await screen.findByRole('button', { name: 'Remove Tom Teach' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('signed out everywhere');
    expect(dialog).toHaveTextContent('Their classes, assessments and results stay with the district.');
    expect(deleted).toBe('');
    await u.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(deleted).toBe('t2'));
    expect(await screen.findByText('Tom Teach was removed.')).toBeInTheDocument();
  });

  it('when a rostered student has no e-mail, then the row says they cannot sign in yet and the admin sets a username and a picture (the username required first)', async () => {
    const rosa = user({
      id: 's4',
      email: 'roster-0a1b2c3d4e5f60718293@roster.invalid',
      firstName: 'Rosa',
      lastName: 'Diaz',
      role: 'student',
      source: 'roster',
    });
    let sent: unknown;
    stubFetch({
      'GET /api/district': () => jsonResponse(200, DISTRICT),
      'GET /api/district/users?limit=50': () =>
        jsonResponse(200, {
          users: [...USERS, sent ? { ...rosa, username: 'rosa.d', signInWith: 'picture' } : rosa],
          nextCursor: null,
        }),
      'GET /api/district/invitations': () => jsonResponse(200, { invitations: [] }),
      'PUT /api/district/students/s4/sign-in': (init) => {
        sent = bodyOf(init);
        return jsonResponse(200, {
          id: 's4',
          firstName: 'Rosa',
          lastName: 'Diaz',
          username: 'rosa.d',
          signInWith: 'picture',
          createdAt: '2026-11-30T10:00:00.000Z',
          signInChangedAt: '2026-11-30T10:00:00.000Z',
        });
      },
    });
    const { user: u } = await renderAt('/admin/users');
    expect(await screen.findByText('No e-mail: cannot sign in with the class code yet')).toBeInTheDocument();
    // A student with an e-mail gets no such button.
    expect(screen.queryByRole('button', { name: 'Set the picture or words of Sam Stu' })).not.toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Set the picture or words of Rosa Diaz' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign-in of Rosa Diaz' });
    await u.click(within(dialog).getByRole('button', { name: 'moon' }));
    await u.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Username is required');
    expect(sent).toBeUndefined();
    await u.type(within(dialog).getByLabelText('Username'), 'rosa.d');
    await u.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent).toEqual({ username: 'rosa.d', secret: { kind: 'picture', picture: 'moon' } }));
    expect(await screen.findByText('Rosa Diaz signs in with the new picture or words.')).toBeInTheDocument();
    expect(await screen.findByText('No e-mail: signs in as rosa.d with a picture')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Set the picture or words of Rosa Diaz' })).toHaveTextContent(
      'New picture or words',
    );
  });

  it('when the admin promotes a teacher and refusal comes back for the last admin, then PATCH carries the role and the message shows', async () => {
    const bodies: unknown[] = [];
    stubFetch({
      'GET /api/district': () => jsonResponse(200, DISTRICT),
      'GET /api/district/users?limit=50': () =>
        jsonResponse(200, {
          users: [...USERS, user({ id: 'a4', firstName: 'Al', lastName: 'Other', role: 'admin' })],
          nextCursor: null,
        }),
      'GET /api/district/invitations': () => jsonResponse(200, { invitations: [] }),
      'PATCH /api/district/users/t2': (init) => {
        bodies.push(bodyOf(init));
        return jsonResponse(200, { id: 't2', role: 'admin' });
      },
      'PATCH /api/district/users/a4': () =>
        jsonResponse(409, {
          message: 'The district needs at least one admin: make someone else an admin first.',
          code: 'last_admin',
        }),
    });
    const { user: u } = await renderAt('/admin/users');
    await u.click(await screen.findByRole('button', { name: 'Make Tom Teach an admin' }));
    await waitFor(() => expect(bodies).toEqual([{ role: 'admin' }]));
    expect(await screen.findByText('Tom Teach is now an admin.')).toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Make Al Other a teacher' }));
    expect(
      await screen.findByText('The district needs at least one admin: make someone else an admin first.'),
    ).toBeInTheDocument();
  });

  it('when the admin invites someone, then the dialog posts email and role; an existing account’s 409 shows in the dialog', async () => {
    const bodies: unknown[] = [];
    stubFetch({
      'GET /api/district': () => jsonResponse(200, DISTRICT),
      'GET /api/district/users?limit=50': () => jsonResponse(200, { users: USERS, nextCursor: null }),
      'GET /api/district/invitations': () => jsonResponse(200, { invitations: [] }),
      'POST /api/district/invitations': (init) => {
        const body = bodyOf(init) as { email: string; role: string };
        bodies.push(body);
        return body.email === 'tom@maple.example.org'
          ? jsonResponse(409, { message: 'An account with this email already exists.', code: 'account_exists' })
          : jsonResponse(202, { invited: true, email: body.email, role: body.role });
      },
    });
    const { user: u } = await renderAt('/admin/users');
    await u.click(await screen.findByRole('button', { name: 'Invite' }));
    const dialog = await screen.findByRole('dialog');
    await u.type(within(dialog).getByLabelText('Email'), 'tom@maple.example.org');
    await u.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('An account with this email already exists.');

    await u.clear(within(dialog).getByLabelText('Email'));
    await u.type(within(dialog).getByLabelText('Email'), 'new.teacher@gmail.example.com');
    await u.selectOptions(within(dialog).getByLabelText('Role'), 'student');
    await u.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('An invitation was mailed to new.teacher@gmail.example.com.')).toBeInTheDocument();
    expect(bodies.at(-1)).toEqual({ email: 'new.teacher@gmail.example.com', role: 'student' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('when there are pending invitations, then each can be revoked', async () => {
    let revoked = false;
    stubFetch({
      'GET /api/district': () => jsonResponse(200, DISTRICT),
      'GET /api/district/users?limit=50': () => jsonResponse(200, { users: USERS, nextCursor: null }),
      'GET /api/district/invitations': () =>
        jsonResponse(200, {
          invitations: revoked
            ? []
            : [
                {
                  id: 'f'.repeat(64),
                  email: 'pending@x.example',
                  role: 'teacher',
                  createdAt: '2024-03-05T10:00:00.000Z',
                  expiresAt: '2024-03-12T10:00:00.000Z',
                },
              ],
        }),
      [`DELETE /api/district/invitations/${'f'.repeat(64)}`]: () => {
        revoked = true;
        return new Response(null, { status: 204 });
      },
    });
    const { user: u } = await renderAt('/admin/users');
    const list = await screen.findByRole('list', { name: 'Pending invitations' });
    await u.click(within(list).getByRole('button', { name: 'Revoke the invitation of pending@x.example' }));
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Pending invitations' })).not.toBeInTheDocument());
    expect(revoked).toBe(true);
  });

  it('when there is a next page, then Next page asks for it with the cursor and Previous page goes back', async () => {
    const fetchMock = stubFetch({
      'GET /api/district': () => jsonResponse(200, DISTRICT),
      'GET /api/district/users?limit=50': () => jsonResponse(200, { users: USERS.slice(0, 2), nextCursor: 'abc' }),
      'GET /api/district/users?limit=50&cursor=abc': () =>
        jsonResponse(200, { users: USERS.slice(2), nextCursor: null }),
      'GET /api/district/invitations': () => jsonResponse(200, { invitations: [] }),
    });
    const { user: u } = await renderAt('/admin/users');
    await u.click(await screen.findByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(screen.getByRole('table')).toHaveTextContent('Sam Stu'));
    expect(fetchMock.mock.calls.map((c) => String(c[0]))).toContain('/api/district/users?limit=50&cursor=abc');
    expect(screen.queryByRole('button', { name: 'Next page' })).not.toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Previous page' }));
    await waitFor(() => expect(screen.getByRole('table')).toHaveTextContent('Tom Teach'));
  });
});
