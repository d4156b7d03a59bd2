import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders } from '../../test/test-utils';
import { stubFetch, TEACHER } from '../../test/fetchStub';
import { ClassTeachersSection } from './ClassTeachersSection';
import type { ClassItem, ClassTeacher } from './classesApi';

const cls: ClassItem = {
  id: 'c1',
  name: 'Biology',
  subject: 'Science',
  period: '4',
  joinCode: 'BXR7KP',
  createdAt: '2024-03-05T10:00:00.000Z',
  teacherId: TEACHER.id,
  teacherName: 'Ada Lovelace',
  studentCount: 3,
  assessmentCount: 1,
  belowStandard: 0,
  atStandard: 0,
  aboveStandard: 0,
  archived: false,
  coTeaching: false,
};
const OWNER: ClassTeacher = {
  id: TEACHER.id,
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: TEACHER.email,
  owner: true,
};
const CORA: ClassTeacher = { id: 'u9', firstName: 'Cora', lastName: 'Teach', email: 'cora@school.org', owner: false };

describe('ClassTeachersSection', () => {
  it('when the owner adds a teacher by email, then the email is sent and the list shows them as co-teacher', async () => {
    let teachers = [OWNER];
    let sent: unknown;
    stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, TEACHER),
      'GET /api/classes/c1/teachers': () => jsonResponse(200, teachers),
      'POST /api/classes/c1/teachers': (init) => {
        sent = JSON.parse(String(init?.body));
        teachers = [OWNER, CORA];
        return jsonResponse(201, CORA);
      },
    });
    const { user } = renderWithProviders(<ClassTeachersSection cls={cls} />);
    const section = await screen.findByRole('region', { name: 'Teachers' });
    expect(await within(section).findByText('Owner')).toBeInTheDocument();
    await user.type(within(section).getByLabelText('Add a co-teacher'), 'cora@school.org');
    await user.click(within(section).getByRole('button', { name: 'Add teacher' }));
    expect(sent).toEqual({ email: 'cora@school.org' });
    expect(await within(section).findByRole('status')).toHaveTextContent('Cora Teach now teaches this class with you');
    expect(await within(section).findByText('Co-teacher')).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Remove Cora Teach' })).toBeInTheDocument();
  });

  it('when the server refuses the email, then its message is shown', async () => {
    const refusal = 'No teacher of your school or district has this email. Ask them to sign up with it, then add them.';
    stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, TEACHER),
      'GET /api/classes/c1/teachers': () => jsonResponse(200, [OWNER]),
      'POST /api/classes/c1/teachers': () => jsonResponse(404, { message: refusal, code: 'not_found' }),
    });
    const { user } = renderWithProviders(<ClassTeachersSection cls={cls} />);
    const section = await screen.findByRole('region', { name: 'Teachers' });
    await user.type(within(section).getByLabelText('Add a co-teacher'), 'someone@elsewhere.org');
    await user.click(within(section).getByRole('button', { name: 'Add teacher' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent(refusal);
  });

  it('when the owner removes a co-teacher, then the DELETE names them', async () => {
    let removed = '';
    stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, TEACHER),
      'GET /api/classes/c1/teachers': () => jsonResponse(200, removed ? [OWNER] : [OWNER, CORA]),
      'DELETE /api/classes/c1/teachers/u9': () => {
        removed = 'u9';
        return new Response(null, { status: 204 });
      },
    });
    const { user } = renderWithProviders(<ClassTeachersSection cls={cls} />);
    await user.click(await screen.findByRole('button', { name: 'Remove Cora Teach' }));
    await waitFor(() => expect(removed).toBe('u9'));
    await waitFor(() => expect(screen.queryByText('Cora Teach')).not.toBeInTheDocument());
  });

  it('when a co-teacher opens it, then there is no add form, the owner cannot be removed, and they may leave', async () => {
    const me = { ...TEACHER, id: 'u9' };
    stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, me),
      'GET /api/classes/c1/teachers': () => jsonResponse(200, [{ ...OWNER, id: 'owner' }, CORA]),
    });
    renderWithProviders(<ClassTeachersSection cls={{ ...cls, teacherId: 'owner', coTeaching: true }} />);
    const section = await screen.findByRole('region', { name: 'Teachers' });
    expect(await within(section).findByRole('button', { name: 'Leave this class' })).toBeInTheDocument();
    expect(within(section).queryByLabelText('Add a co-teacher')).not.toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
    expect(within(section).getByText(/You co-teach this class/)).toBeInTheDocument();
  });

  it('when the owner adds an address without an account, then it is listed as invited and can be withdrawn', async () => {
    const invitation: ClassTeacher = {
      id: 'inv1',
      firstName: null,
      lastName: null,
      email: 'newbie@school.org',
      owner: false,
      invitation: 'pending',
    };
    let teachers = [OWNER];
    let withdrawn = false;
    stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, TEACHER),
      'GET /api/classes/c1/teachers': () => jsonResponse(200, teachers),
      'POST /api/classes/c1/teachers': () => {
        teachers = [OWNER, invitation];
        return jsonResponse(201, invitation);
      },
      'DELETE /api/classes/c1/teachers/inv1': () => {
        withdrawn = true;
        teachers = [OWNER];
        return new Response(null, { status: 204 });
      },
    });
    const { user } = renderWithProviders(<ClassTeachersSection cls={cls} />);
    const section = await screen.findByRole('region', { name: 'Teachers' });
    await user.type(within(section).getByLabelText('Add a co-teacher'), 'newbie@school.org');
    await user.click(within(section).getByRole('button', { name: 'Add teacher' }));
    expect(await within(section).findByRole('status')).toHaveTextContent(
      'newbie@school.org has no account yet: an invitation is on its way',
    );
    expect(await within(section).findByText('Invited')).toBeInTheDocument();
    expect(within(section).queryByText('Co-teacher')).not.toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Withdraw the invitation of newbie@school.org' }));
    await waitFor(() => expect(withdrawn).toBe(true));
    expect(await within(section).findByRole('status')).toHaveTextContent(
      'The invitation of newbie@school.org is withdrawn',
    );
    await waitFor(() => expect(within(section).queryByText('Invited')).not.toBeInTheDocument());
  });

  it('when the district does not invite an address, then the owner sees it refused; a co-teacher cannot withdraw it', async () => {
    const refused: ClassTeacher = {
      id: 'inv2',
      firstName: null,
      lastName: null,
      email: 'someone@elsewhere.org',
      owner: false,
      invitation: 'refused',
    };
    stubFetch({
      'GET /api/auth/user': () => jsonResponse(200, { ...TEACHER, id: 'u9' }),
      'GET /api/classes/c1/teachers': () => jsonResponse(200, [{ ...OWNER, id: 'owner' }, CORA, refused]),
    });
    renderWithProviders(<ClassTeachersSection cls={{ ...cls, teacherId: 'owner', coTeaching: true }} />);
    const section = await screen.findByRole('region', { name: 'Teachers' });
    expect(await within(section).findByText('Not invited')).toBeInTheDocument();
    expect(within(section).getByText(/Not an address your district invites/)).toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: /Withdraw/ })).not.toBeInTheDocument();
  });
});
