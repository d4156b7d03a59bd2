// Student accounts without email (docs/adr/015-students-without-email.md): the class page's
// "Student logins" for the class's teachers (/api/classes/{id}/student-logins, .../login-cards, sent
// here by the gateway from inside the class service's prefix) and the students' sign-in with the
// class code or a login card (/api/auth/class-code, /api/auth/login-card), which start a session
// exactly as a password sign-in does (ADR 004).
import { ApiRouter, clientAddress } from '@checkpoint/service-kit';
import {
  classCodeRoster,
  createStudentLogin,
  issueLoginCards,
  listStudentLogins,
  resetStudentSecret,
  revokeLoginCards,
  setStudentSignInAsAdmin,
  setUpStudentLogin,
  signInWithCard,
  signInWithClassCode,
  type StudentLoginDeps,
} from '../domain/student-logins.use-case.ts';
import { startSession, type SessionDeps } from '../domain/sessions.use-case.ts';
import { toPublicUser } from '../domain/user.ts';
import { userEnvelope } from './auth.schemas.ts';
import type { SessionCookies } from './session-cookies.ts';
import {
  classCodeBody,
  classCodeLoginBody,
  classCodeRosterSchema,
  adminSignInBody,
  classParams,
  districtStudentParams,
  loginCardBody,
  loginCardsSchema,
  newStudentLoginBody,
  resetSecretBody,
  revokedCardsSchema,
  setUpLoginBody,
  studentLoginSchema,
  studentLoginsSchema,
  studentParams,
} from './student-logins.schemas.ts';

const TEACHER = ['teacher'] as const;
const ADMIN = ['admin'] as const;

export function studentLoginsRouter(deps: {
  logins: StudentLoginDeps;
  sessions: SessionDeps;
  cookies: SessionCookies;
}): ApiRouter {
  const api = new ApiRouter();

  api.add(
    {
      method: 'get',
      path: '/api/classes/:id/student-logins',
      summary: "The class's student accounts without email, its class code and its login cards in force",
      access: TEACHER,
      params: classParams,
      response: studentLoginsSchema,
      errors: [404],
    },
    ({ caller, params }) => listStudentLogins(deps.logins, caller, params.id),
  );

  api.add(
    {
      method: 'post',
      path: '/api/classes/:id/student-logins',
      summary:
        'Make a student account without email for the class: a display name, a username unique in the district and a picture or two words as its password',
      access: TEACHER,
      params: classParams,
      body: newStudentLoginBody,
      status: 201,
      response: studentLoginSchema,
      errors: [404, 409],
    },
    ({ caller, params, body }) => createStudentLogin(deps.logins, caller, params.id, body),
  );

  api.add(
    {
      method: 'put',
      path: '/api/classes/:id/student-logins/:studentId',
      summary:
        'Give a student of the class who has no e-mail to sign in with (rostered without one, or from an LMS) a username and a picture or two words; 409 when the student has an e-mail (has_email) or already has them (has_sign_in: reset instead)',
      access: TEACHER,
      params: studentParams,
      body: setUpLoginBody,
      response: studentLoginSchema,
      errors: [404, 409],
    },
    ({ caller, params, body }) => setUpStudentLogin(deps.logins, caller, params.id, params.studentId, body),
  );

  api.add(
    {
      method: 'put',
      path: '/api/district/students/:id/sign-in',
      summary:
        "Set a district student's picture or two words (a first one needs a username; a username given renames), for a student with no e-mail to sign in with; the old ones stop working; 409 has_email",
      access: ADMIN,
      params: districtStudentParams,
      body: adminSignInBody,
      response: studentLoginSchema,
      errors: [404, 409],
    },
    ({ caller, params, body }) => setStudentSignInAsAdmin(deps.logins, caller, params.id, body),
  );

  api.add(
    {
      method: 'put',
      path: '/api/classes/:id/student-logins/:studentId/secret',
      summary: "Reset a student's picture or words (the old ones stop working)",
      access: TEACHER,
      params: studentParams,
      body: resetSecretBody,
      response: studentLoginSchema,
      errors: [404],
    },
    ({ caller, params, body }) => resetStudentSecret(deps.logins, caller, params.id, params.studentId, body.secret),
  );

  api.add(
    {
      method: 'post',
      path: '/api/classes/:id/login-cards',
      summary:
        "Print the class's login cards: a new card (QR of a first-party address with a secret) for each student account without email; the class's earlier cards stop working",
      access: TEACHER,
      params: classParams,
      status: 201,
      response: loginCardsSchema,
      errors: [404, 409],
    },
    ({ caller, params }) => issueLoginCards(deps.logins, caller, params.id),
  );

  api.add(
    {
      method: 'delete',
      path: '/api/classes/:id/login-cards',
      summary: "Revoke the class's login cards: none of them signs in any more",
      access: TEACHER,
      params: classParams,
      response: revokedCardsSchema,
      errors: [404],
    },
    ({ caller, params }) => revokeLoginCards(deps.logins, caller, params.id),
  );

  api.add(
    {
      method: 'post',
      path: '/api/auth/class-code',
      summary:
        "A class code's sign-in list: the first name and last initial of its students who sign in with a picture or words",
      access: 'public',
      body: classCodeBody,
      response: classCodeRosterSchema,
      errors: [404, 429],
    },
    ({ body, req }) => classCodeRoster(deps.logins, { classCode: body.classCode, address: clientAddress(req) }),
  );

  api.add(
    {
      method: 'post',
      path: '/api/auth/class-code/login',
      summary: 'Sign in with the class code, the name picked from its list and a picture or two words',
      access: 'public',
      body: classCodeLoginBody,
      response: userEnvelope,
      errors: [401, 404, 429],
    },
    async ({ body, res }) => {
      const user = await signInWithClassCode(deps.logins, body);
      deps.cookies.set(res, await startSession(deps.sessions, user));
      return { user: toPublicUser(user) };
    },
  );

  api.add(
    {
      method: 'post',
      path: '/api/auth/login-card',
      summary: "Sign in with a login card's secret (from its QR): refused once the card is revoked or expired",
      access: 'public',
      body: loginCardBody,
      response: userEnvelope,
      errors: [403, 429],
    },
    async ({ body, req, res }) => {
      const user = await signInWithCard(deps.logins, { token: body.token, address: clientAddress(req) });
      deps.cookies.set(res, await startSession(deps.sessions, user));
      return { user: toPublicUser(user) };
    },
  );

  return api;
}
