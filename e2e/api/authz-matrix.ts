// The authorization matrix (SECURITY "Access control (tested as a matrix)"): for every route of
// /api/openapi.json, who may call it (the document's "Access:" line) and the status each actor
// should get when the route's ids name the owner's objects (tenant A's teacher `A.owner`): 401
// signed out, 403 a role the route does not allow, 404 a foreign object (never confirm it exists),
// and which forbidden-looking keys an actor may legitimately receive in a 2xx body.
// authz-matrix.contract.test.ts runs it against the all-in-one.
import { randomUUID } from 'node:crypto';

/** Who calls. Tenant A and tenant B are two districts; the owner goes last (see ACTORS). */
export type Actor =
  | 'anon'
  | 'signed-out'
  | 'A.admin'
  | 'A.owner'
  | 'A.teacher'
  | 'A.student'
  | 'A.classmate'
  | 'A.stranger'
  | 'B.admin'
  | 'B.teacher'
  | 'B.student';

/**
 * The order cells run in: outsiders first, the owner last, so that a throwaway object that
 * outsiders were refused is then used by the owner (a 2xx proves it was there all along).
 */
export const ACTORS: readonly Actor[] = [
  'anon',
  'signed-out', // A.owner's session right after its sign-out: its cookies sent again (all routes at once)
  'B.student',
  'B.teacher',
  'B.admin',
  'A.stranger', // student of the district, not in the class
  'A.classmate', // in the class, answered, not submitted: no answer keys for them
  'A.student', // in the class, submitted (result R1, below standard)
  'A.teacher', // teacher of the district, not the owner
  'A.admin', // the district's admin, owns nothing
  'A.owner', // teaches class C1 and owns assessment A1
];

export type Role = 'student' | 'teacher' | 'admin';
export const ROLE_OF: Record<Actor, Role | undefined> = {
  anon: undefined,
  'signed-out': undefined,
  'A.admin': 'admin',
  'A.owner': 'teacher',
  'A.teacher': 'teacher',
  'A.student': 'student',
  'A.classmate': 'student',
  'A.stranger': 'student',
  'B.admin': 'admin',
  'B.teacher': 'teacher',
  'B.student': 'student',
};

/** The document's "Access:" line: `anyone`, `any signed-in user`, or the roles. */
export type Access = 'anyone' | 'signed-in' | readonly Role[];

/** The fixtures the cells name (made by the test). */
export interface Fixtures {
  c1: { id: string; name: string; subject: string; period: string };
  a1: { id: string; questionIds: string[] };
  /** A.student's result on A1. */
  r1: string;
  /** A.student's user id. */
  s1: string;
  /** A user nobody else uses, for the sign-in cell. */
  loginTarget: { email: string; password: string };
}

/** Objects made for one cell and used up by a 2xx (a deleted class, a submitted assessment…). */
export type Throwaway =
  | 'class' // A.owner's class
  | 'archivedClass'
  | 'classWithMember' // A.owner's class with one student: `${classId}/${studentId}`
  | 'coTeacherCandidate' // A.owner's class and the email of a teacher of district A: `${classId} ${email}`
  | 'classWithCoTeacher' // A.owner's class with a co-teacher: `${classId}/teachers/${teacherId}`
  | 'joinableA' // A.owner's class: its join code
  | 'joinableB' // B.teacher's class: its join code
  | 'assessment' // A.owner's assessment in C1
  | 'submittedResult' // A.classmate's result on an assessment of C1 that allows 2 attempts
  | 'takeable' // an assigned assessment of C1 with questions, not yet submitted by anyone
  | 'draft' // an unassigned assessment of C1 (questions are added to it)
  | 'question' // a question of a draft
  | 'districtTeacher' // a teacher of district A (its id): removed or promoted by A's admin
  | 'invitation' // a pending invitation of district A (its id)
  | 'districtStudent' // a student of district A (its id): exported or deleted by A's admin
  | 'studentExport' // a complete export by A's admin: `${studentId}/exports/${requestId}`
  | 'rosterImport' // a previewed (empty) roster import of district A (its id)
  | 'commonDraft' // a draft common assessment of district A (its id), by A's admin
  | 'commonPublished' // a common assessment of district A published to all its teachers (its id)
  | 'bankShared' // an item of A.owner's bank shared with district A (its id)
  | 'ltiRegistration'; // an LTI platform registration of district A (its id), by A's admin

export interface CellContext {
  f: Fixtures;
  /** The object of that kind for this cell; a 2xx of the cell uses it up. */
  take(kind: Throwaway): Promise<string>;
  /** The actor's profile as the API shows it (for PUT /api/auth/user with unchanged values); signed
   * out: someone's. */
  profile(actor: Actor): { firstName: string; lastName: string; email: string };
}

export interface Cell {
  path: string;
  body?: unknown;
}

export interface MatrixEntry {
  access: Access;
  request(ctx: CellContext, actor: Actor): Cell | Promise<Cell>;
  expect: Record<Actor, number>;
  /** Keys matching FORBIDDEN_KEY that the actor may receive here (its own data, a teacher's keys). */
  keys?: Partial<Record<Actor, RegExp>>;
  /**
   * `copy`: sent with a copy of the actor's cookies (the call sets other session cookies);
   * `fresh`: from a new session of the actor (the call ends the session it runs in).
   */
  session?: 'copy' | 'fresh';
  /** A server-sent event stream: only the status and headers are read. */
  stream?: boolean;
}

/** Keys no 2xx body may hold unless the cell allows it. */
export const FORBIDDEN_KEY = /password|hash|token|secret|correctAnswer|acceptedAnswers|answerKey/i;

const TEACHERS: readonly Role[] = ['teacher', 'admin'];
const STUDENTS: readonly Role[] = ['student'];
const EVERYONE: readonly Role[] = ['teacher', 'admin', 'student'];

/**
 * The status of every actor: 401 signed out (unless anyone may call; a session that has signed
 * out included), 403 a role the route does
 * not allow, else `by[actor]`, else `otherwise` (404 when the ids name someone else's objects).
 */
export function statuses(access: Access, by: Partial<Record<Actor, number>>, otherwise: number) {
  return Object.fromEntries(
    ACTORS.map((actor) => {
      const role = ROLE_OF[actor];
      if (!role && access !== 'anyone') return [actor, 401];
      if (role && Array.isArray(access) && !access.includes(role)) return [actor, 403];
      return [actor, by[actor] ?? otherwise];
    }),
  ) as Record<Actor, number>;
}

const KEYS = /^(?:correctAnswer|acceptedAnswers)$/;
const MC = {
  questionText: 'Which fraction is the largest?',
  questionType: 'multiple_choice',
  options: ['1/2', '1/3', '1/4', '1/5'],
  correctAnswer: '1/2',
  points: 1,
};
const fixed = (path: string, body?: unknown) => () => (body === undefined ? { path } : { path, body });

/** An LTI login initiation from a platform nobody registered. */
const LTI_LOGIN = new URLSearchParams({
  iss: 'https://lms.nobody-matrix.example.org',
  login_hint: 'lms-user-1',
  target_link_uri: 'https://lms.nobody-matrix.example.org/not-this-tool',
}).toString();

/** A platform registration with an issuer of its own (a registered issuer and client id is 409). */
export function ltiRegistration() {
  const host = `https://lms-${randomUUID().slice(0, 8)}.matrix.example.org`;
  return {
    issuer: host,
    clientId: 'matrix-client',
    deploymentIds: ['1'],
    jwksUrl: `${host}/jwks`,
    authorizationUrl: `${host}/authorize`,
    tokenUrl: `${host}/token`,
  };
}
const csrfSafe = { darkMode: false };

/** A small CASE 1.1 CFPackage with a new CFDocument identifier: one grade 6 standard. */
function matrixCasePackage() {
  const [document, item] = [randomUUID(), randomUUID()];
  return {
    CFDocument: { identifier: document, title: 'Matrix Mathematics', creator: 'A state', subject: ['Mathematics'] },
    CFItems: [
      {
        identifier: item,
        humanCodingScheme: '6.RP.A.1',
        fullStatement: 'Understand the concept of a ratio and use ratio language.',
        educationLevel: ['06'],
      },
    ],
    CFAssociations: [
      {
        identifier: randomUUID(),
        associationType: 'isChildOf',
        originNodeURI: { identifier: item },
        destinationNodeURI: { identifier: document },
      },
    ],
  };
}

/** The matrix: one entry per "METHOD /path" of the OpenAPI document. */
export const MATRIX: Record<string, MatrixEntry> = {
  // ---- identity -------------------------------------------------------------------------------
  'POST /api/auth/simple-signup': {
    access: 'anyone',
    session: 'copy',
    request: (_ctx, actor) => ({
      path: '/api/auth/simple-signup',
      body: {
        firstName: 'New',
        lastName: 'Person',
        email: `new.${actor.replace('.', '-').toLowerCase()}.${Date.now().toString(36)}@solo-matrix.example.com`,
        password: 'correct horse battery',
        role: 'student',
      },
    }),
    expect: statuses('anyone', {}, 202),
  },
  'POST /api/auth/simple-login': {
    access: 'anyone',
    session: 'copy',
    request: ({ f }) => ({ path: '/api/auth/simple-login', body: f.loginTarget }),
    expect: statuses('anyone', {}, 200),
  },
  'GET /api/auth/user': {
    access: 'signed-in',
    request: fixed('/api/auth/user'),
    expect: statuses('signed-in', {}, 200),
  },
  'PUT /api/auth/user': {
    access: 'signed-in',
    request: (ctx, actor) => ({ path: '/api/auth/user', body: ctx.profile(actor) }),
    expect: statuses('signed-in', {}, 200),
  },
  'PATCH /api/auth/user/preferences': {
    access: 'signed-in',
    request: fixed('/api/auth/user/preferences', csrfSafe),
    expect: statuses('signed-in', {}, 200),
  },
  'POST /api/auth/logout': {
    access: 'anyone',
    session: 'fresh',
    request: fixed('/api/auth/logout'),
    expect: statuses('anyone', {}, 204),
  },
  // ---- email links and passwords (identity): a made-up token is refused alike for everyone -----
  'POST /api/auth/email/verify': {
    access: 'anyone',
    session: 'copy',
    request: fixed('/api/auth/email/verify', { token: 'matrix-made-up-token' }),
    expect: statuses('anyone', {}, 400),
  },
  // Verified or not, the answer is 202 (verificationSent says whether a mail went out).
  'POST /api/auth/email/resend': {
    access: 'signed-in',
    request: fixed('/api/auth/email/resend'),
    expect: statuses('signed-in', {}, 202),
  },
  // Always 202, whether an account has the address or not.
  'POST /api/auth/password/forgot': {
    access: 'anyone',
    request: (_ctx, actor) => ({
      path: '/api/auth/password/forgot',
      body: { email: `forgot.${actor.replace('.', '-').toLowerCase()}@nobody-matrix.example.com` },
    }),
    expect: statuses('anyone', {}, 202),
  },
  'POST /api/auth/password/reset': {
    access: 'anyone',
    request: fixed('/api/auth/password/reset', { token: 'matrix-made-up-token', password: 'new password 1' }),
    expect: statuses('anyone', {}, 400),
  },
  // A wrong current password: 400 for every signed-in actor (nobody's password changes here).
  'PUT /api/auth/password': {
    access: 'signed-in',
    request: fixed('/api/auth/password', { currentPassword: 'not the password', newPassword: 'new password 1' }),
    expect: statuses('signed-in', {}, 400),
  },
  // ---- district administration (identity): the admin's own district only ---------------------
  // passwordSignIn is the district's setting, not a secret.
  'GET /api/district': {
    access: ['admin'],
    request: fixed('/api/district'),
    expect: statuses(['admin'], {}, 200),
    keys: { 'A.admin': /^passwordSignIn$/, 'B.admin': /^passwordSignIn$/ },
  },
  'GET /api/district/users': {
    access: ['admin'],
    request: fixed('/api/district/users?limit=200'),
    expect: statuses(['admin'], {}, 200),
  },
  // A's teacher: promoted by A's admin, not found for B's.
  'PATCH /api/district/users/{id}': {
    access: ['admin'],
    request: async (ctx) => ({
      path: `/api/district/users/${await ctx.take('districtTeacher')}`,
      body: { role: 'admin' },
    }),
    expect: statuses(['admin'], { 'A.admin': 200 }, 404),
  },
  'DELETE /api/district/users/{id}': {
    access: ['admin'],
    request: async (ctx) => ({ path: `/api/district/users/${await ctx.take('districtTeacher')}` }),
    expect: statuses(['admin'], { 'A.admin': 204 }, 404),
  },
  // Every admin may invite to their own district (a new address each time).
  'POST /api/district/invitations': {
    access: ['admin'],
    request: (_ctx, actor) => ({
      path: '/api/district/invitations',
      body: {
        email: `invitee.${actor.replace('.', '-').toLowerCase()}.${Date.now().toString(36)}@elsewhere-matrix.example.com`,
        role: 'teacher',
      },
    }),
    expect: statuses(['admin'], {}, 202),
  },
  'GET /api/district/invitations': {
    access: ['admin'],
    request: fixed('/api/district/invitations'),
    expect: statuses(['admin'], {}, 200),
  },
  'DELETE /api/district/invitations/{id}': {
    access: ['admin'],
    request: async (ctx) => ({ path: `/api/district/invitations/${await ctx.take('invitation')}` }),
    expect: statuses(['admin'], { 'A.admin': 204 }, 404),
  },
  // ---- OneRoster imports (identity): the admin's own district only ---------------------------
  // The upload is a zip or CSV body: a JSON body (or none) is an empty upload, 400, for any admin.
  'POST /api/district/roster/imports': {
    access: ['admin'],
    request: fixed('/api/district/roster/imports'),
    expect: statuses(['admin'], {}, 400),
  },
  'GET /api/district/roster/imports': {
    access: ['admin'],
    request: fixed('/api/district/roster/imports'),
    expect: statuses(['admin'], {}, 200),
  },
  'GET /api/district/roster/imports/{id}': {
    access: ['admin'],
    request: async (ctx) => ({ path: `/api/district/roster/imports/${await ctx.take('rosterImport')}` }),
    expect: statuses(['admin'], { 'A.admin': 200 }, 404),
  },
  'GET /api/district/roster/imports/{id}/errors.csv': {
    access: ['admin'],
    request: async (ctx) => ({ path: `/api/district/roster/imports/${await ctx.take('rosterImport')}/errors.csv` }),
    expect: statuses(['admin'], { 'A.admin': 200 }, 404),
  },
  'POST /api/district/roster/imports/{id}/apply': {
    access: ['admin'],
    request: async (ctx) => ({ path: `/api/district/roster/imports/${await ctx.take('rosterImport')}/apply` }),
    expect: statuses(['admin'], { 'A.admin': 202 }, 404),
  },
  // ---- privacy operations (identity; docs/adr/009): the admin's own district only -------------
  'POST /api/district/students/{id}/exports': {
    access: ['admin'],
    request: async (ctx) => ({ path: `/api/district/students/${await ctx.take('districtStudent')}/exports` }),
    expect: statuses(['admin'], { 'A.admin': 202 }, 404),
  },
  'GET /api/district/students/{id}/exports/{requestId}': {
    access: ['admin'],
    request: async (ctx) => ({ path: `/api/district/students/${await ctx.take('studentExport')}` }),
    expect: statuses(['admin'], { 'A.admin': 200 }, 404),
  },
  // The student's own rows (practice questions carry their keys): for their district's admin.
  'GET /api/district/students/{id}/exports/{requestId}/download': {
    access: ['admin'],
    request: async (ctx) => ({ path: `/api/district/students/${await ctx.take('studentExport')}/download` }),
    expect: statuses(['admin'], { 'A.admin': 200 }, 404),
    keys: { 'A.admin': KEYS },
  },
  'GET /api/district/privacy/requests/{requestId}': {
    access: ['admin'],
    request: async (ctx) => ({
      path: `/api/district/privacy/requests/${(await ctx.take('studentExport')).split('/').at(-1)}`,
    }),
    expect: statuses(['admin'], { 'A.admin': 200 }, 404),
  },
  'DELETE /api/district/students/{id}': {
    access: ['admin'],
    request: async (ctx) => ({ path: `/api/district/students/${await ctx.take('districtStudent')}` }),
    expect: statuses(['admin'], { 'A.admin': 202 }, 404),
  },
  // Never the real name here: a wrong confirmation answers 400 and deletes nothing.
  'POST /api/district/deletion': {
    access: ['admin'],
    request: fixed('/api/district/deletion', { confirmName: 'Not the district name' }),
    expect: statuses(['admin'], {}, 400),
  },
  'GET /api/district/privacy': {
    access: ['admin'],
    request: fixed('/api/district/privacy'),
    expect: statuses(['admin'], {}, 200),
  },
  'PUT /api/district/privacy': {
    access: ['admin'],
    request: fixed('/api/district/privacy', { retentionDays: null }),
    expect: statuses(['admin'], {}, 200),
  },
  'GET /api/district/class-joins': {
    access: ['admin'],
    request: fixed('/api/district/class-joins'),
    expect: statuses(['admin'], {}, 200),
  },
  'PUT /api/district/class-joins': {
    access: ['admin'],
    request: fixed('/api/district/class-joins', { studentsOwnClassesOnly: false }),
    expect: statuses(['admin'], {}, 200),
  },
  'GET /api/district/audit': {
    access: ['admin'],
    request: fixed('/api/district/audit'),
    expect: statuses(['admin'], {}, 200),
  },
  'GET /api/district/audit/export.csv': {
    access: ['admin'],
    request: fixed('/api/district/audit/export.csv'),
    expect: statuses(['admin'], {}, 200),
  },
  // District SSO (each admin their own district's). hasSecret/passwordSignIn say whether, never what.
  'GET /api/district/sso': {
    access: ['admin'],
    request: fixed('/api/district/sso'),
    expect: statuses(['admin'], {}, 200),
    keys: { 'A.admin': /^(passwordSignIn|hasSecret)$/, 'B.admin': /^(passwordSignIn|hasSecret)$/ },
  },
  // Discovery at this issuer fails (nothing listens): the admin's answer is 400 naming `issuer`.
  'PUT /api/district/sso': {
    access: ['admin'],
    request: (_ctx, actor) => ({
      path: '/api/district/sso',
      body: {
        issuer: 'http://127.0.0.1:9/matrix',
        clientId: 'matrix',
        clientSecret: 'matrix-secret',
        emailDomains: [actor.startsWith('B') ? 'b.example.com' : 'a.example.com'],
      },
    }),
    expect: statuses(['admin'], {}, 400),
  },
  // No connection: removing none is done.
  'DELETE /api/district/sso': {
    access: ['admin'],
    request: fixed('/api/district/sso'),
    expect: statuses(['admin'], {}, 204),
  },
  'PUT /api/district/sso/password-sign-in': {
    access: ['admin'],
    request: fixed('/api/district/sso/password-sign-in', { passwordSignIn: true }),
    expect: statuses(['admin'], {}, 200),
    keys: { 'A.admin': /^(passwordSignIn|hasSecret)$/, 'B.admin': /^(passwordSignIn|hasSecret)$/ },
  },
  // LTI 1.3 (docs/adr/014-lti.md): the tool's keys, the platform's login and launch are anyone's;
  // a login or launch naming no registered platform or no pending login is 400 naming the field.
  'GET /api/lti/jwks': {
    access: 'anyone',
    request: fixed('/api/lti/jwks'),
    expect: statuses('anyone', {}, 200),
  },
  'GET /api/lti/login': {
    access: 'anyone',
    request: fixed(`/api/lti/login?${LTI_LOGIN}`),
    expect: statuses('anyone', {}, 400),
  },
  'POST /api/lti/login': {
    access: 'anyone',
    request: fixed('/api/lti/login', Object.fromEntries(new URLSearchParams(LTI_LOGIN))),
    expect: statuses('anyone', {}, 400),
  },
  'POST /api/lti/launch': {
    access: 'anyone',
    request: fixed('/api/lti/launch', { id_token: 'a.b.c', state: 'no-such-state' }),
    expect: statuses('anyone', {}, 400),
  },
  // LTI Deep Linking: a teacher's own pending request only (made by a deep-linking launch from an
  // LMS, which the matrix has none of: any id here is no pending request of the caller's, 404); a
  // student or an admin is refused (403) before any request is looked up.
  'GET /api/lti/deep-linking/{id}': {
    access: ['teacher'],
    request: fixed('/api/lti/deep-linking/00000000-0000-4000-8000-000000000031'),
    expect: statuses(['teacher'], {}, 404),
  },
  'POST /api/lti/deep-linking/{id}/response': {
    access: ['teacher'],
    request: async (ctx) => ({
      path: '/api/lti/deep-linking/00000000-0000-4000-8000-000000000031/response',
      body: { assessmentId: ctx.f.a1.id },
    }),
    expect: statuses(['teacher'], {}, 404),
  },
  'GET /api/lti/deep-linking/{id}/form': {
    access: ['teacher'],
    request: fixed('/api/lti/deep-linking/00000000-0000-4000-8000-000000000031/form'),
    expect: statuses(['teacher'], {}, 404),
  },
  // LTI Dynamic Registration: the platform opens a district's one-time link; a link that names no
  // pending registration is 400 naming `rt`, before any platform is called.
  'GET /api/lti/register': {
    access: 'anyone',
    request: fixed(
      `/api/lti/register?rt=no-such-link&openid_configuration=${encodeURIComponent('https://lms.example.org/.well-known/openid-configuration')}`,
    ),
    expect: statuses('anyone', {}, 400),
  },
  // A district admin's one-time dynamic registration link, for their own district.
  'POST /api/integrations/lti/registration-links': {
    access: ['admin'],
    request: fixed('/api/integrations/lti/registration-links'),
    expect: statuses(['admin'], {}, 201),
  },
  // A district admin's platform registrations: their own district's only (another's is 404).
  'GET /api/integrations/lti/registrations': {
    access: ['admin'],
    request: fixed('/api/integrations/lti/registrations'),
    expect: statuses(['admin'], {}, 200),
    keys: { 'A.admin': /^tokenUrl$/, 'B.admin': /^tokenUrl$/ },
  },
  'POST /api/integrations/lti/registrations': {
    access: ['admin'],
    request: () => ({ path: '/api/integrations/lti/registrations', body: ltiRegistration() }),
    expect: statuses(['admin'], {}, 201),
    keys: { 'A.admin': /^tokenUrl$/, 'B.admin': /^tokenUrl$/ },
  },
  // A class's roster from its LMS course (NRPS): the class's teachers only; another's class, of
  // any district, is 404. C1 is linked to no LMS course: its owner is told so (409 on a sync).
  'GET /api/integrations/lti/classes/{classId}/roster': {
    access: ['teacher'],
    request: ({ f }) => ({ path: `/api/integrations/lti/classes/${f.c1.id}/roster` }),
    expect: statuses(['teacher'], { 'A.owner': 200 }, 404),
  },
  'POST /api/integrations/lti/classes/{classId}/roster/sync': {
    access: ['teacher'],
    request: ({ f }) => ({ path: `/api/integrations/lti/classes/${f.c1.id}/roster/sync` }),
    expect: statuses(['teacher'], { 'A.owner': 409 }, 404),
  },
  'GET /api/integrations/lti/registrations/{id}': {
    access: ['admin'],
    request: async (ctx) => ({ path: `/api/integrations/lti/registrations/${await ctx.take('ltiRegistration')}` }),
    expect: statuses(['admin'], { 'B.admin': 404 }, 200),
    keys: { 'A.admin': /^tokenUrl$/ },
  },
  'PUT /api/integrations/lti/registrations/{id}': {
    access: ['admin'],
    request: async (ctx) => ({
      path: `/api/integrations/lti/registrations/${await ctx.take('ltiRegistration')}`,
      body: ltiRegistration(),
    }),
    expect: statuses(['admin'], { 'B.admin': 404 }, 200),
    keys: { 'A.admin': /^tokenUrl$/ },
  },
  'DELETE /api/integrations/lti/registrations/{id}': {
    access: ['admin'],
    request: async (ctx) => ({ path: `/api/integrations/lti/registrations/${await ctx.take('ltiRegistration')}` }),
    expect: statuses(['admin'], { 'B.admin': 404 }, 204),
  },
  // Scores to the LMS (AGS): an assessment's scores and their resend, for a teacher of its class
  // only (another teacher, of the district or not: 404); a district admin's failures, their own.
  'GET /api/integrations/lti/assessments/{assessmentId}/scores': {
    access: ['teacher'],
    request: ({ f }) => ({ path: `/api/integrations/lti/assessments/${f.a1.id}/scores` }),
    expect: statuses(['teacher'], { 'A.owner': 200 }, 404),
  },
  'POST /api/integrations/lti/assessments/{assessmentId}/scores/resend': {
    access: ['teacher'],
    request: ({ f }) => ({ path: `/api/integrations/lti/assessments/${f.a1.id}/scores/resend`, body: {} }),
    expect: statuses(['teacher'], { 'A.owner': 200 }, 404),
  },
  'GET /api/integrations/lti/score-failures': {
    access: ['admin'],
    request: fixed('/api/integrations/lti/score-failures'),
    expect: statuses(['admin'], {}, 200),
  },
  // No OIDC client is configured in the test: everyone is sent back to the sign-in page
  // (/auth?error=google_not_configured), never shown a JSON page.
  'GET /api/auth/google': {
    access: 'anyone',
    request: fixed('/api/auth/google'),
    expect: statuses('anyone', {}, 302),
  },
  // The sign-in page's look-up of a typed email: no connection at that domain here.
  'GET /api/auth/sso': {
    access: 'anyone',
    request: fixed('/api/auth/sso?email=someone@solo-matrix.example.com'),
    expect: statuses('anyone', {}, 200),
    keys: Object.fromEntries(ACTORS.map((actor) => [actor, /^passwordSignIn$/])),
  },
  // A sign-in the provider starts, for a connection that does not exist: back to the sign-in page.
  'GET /api/auth/sso/{connectionId}/initiate': {
    access: 'anyone',
    request: fixed('/api/auth/sso/00000000-0000-4000-8000-000000000000/initiate?iss=https%3A%2F%2Fidp.example.com'),
    expect: statuses('anyone', {}, 302),
  },
  // Without a flow in progress the callback sends the browser back to sign-in.
  'GET /api/auth/google/callback': {
    access: 'anyone',
    request: fixed('/api/auth/google/callback'),
    expect: statuses('anyone', {}, 302),
  },
  // A one-time sign-in of an LTI launch (docs/adr/014-lti.md): a made-up token sends the browser
  // back to sign-in, whoever asks (the session a real one opens is the launch's LMS user's).
  'GET /api/auth/lti/handoff': {
    access: 'anyone',
    request: fixed('/api/auth/lti/handoff?token=no-such-handoff'),
    expect: statuses('anyone', {}, 302),
  },
  // Without a pending Google sign-up there is nothing to complete.
  'POST /api/auth/google/complete': {
    access: 'anyone',
    session: 'copy',
    request: fixed('/api/auth/google/complete', { role: 'student' }),
    expect: statuses('anyone', {}, 400),
  },
  // An invitation link's token: anyone holding it may read and accept it; one nobody issued is 404
  // (district-membership.contract.test.ts accepts real ones).
  'GET /api/auth/invitations/{token}': {
    access: 'anyone',
    request: fixed('/api/auth/invitations/bm90LWFuLWludml0YXRpb24tdG9rZW4tYXQtYWxsLXJlYWxseQ'),
    expect: statuses('anyone', {}, 404),
  },
  'POST /api/auth/invitations/accept': {
    access: 'anyone',
    session: 'copy',
    request: fixed('/api/auth/invitations/accept', {
      token: 'bm90LWFuLWludml0YXRpb24tdG9rZW4tYXQtYWxsLXJlYWxseQ',
      firstName: 'New',
      lastName: 'Person',
      password: 'correct horse battery',
    }),
    expect: statuses('anyone', {}, 404),
  },

  // ---- classes --------------------------------------------------------------------------------
  'GET /api/classes': {
    access: TEACHERS,
    request: fixed('/api/classes'),
    expect: statuses(TEACHERS, {}, 200),
  },
  'POST /api/classes': {
    access: TEACHERS,
    request: fixed('/api/classes', { name: 'Matrix class', subject: 'Math', period: '1' }),
    expect: statuses(TEACHERS, {}, 201),
  },
  'GET /api/classes/archived': {
    access: TEACHERS,
    request: fixed('/api/classes/archived'),
    expect: statuses(TEACHERS, {}, 200),
  },
  'GET /api/classes/{id}': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/classes/${f.c1.id}` }),
    expect: statuses(TEACHERS, { 'A.owner': 200 }, 404),
  },
  'PUT /api/classes/{id}': {
    access: TEACHERS,
    // Unchanged values: only access decides.
    request: ({ f }) => ({
      path: `/api/classes/${f.c1.id}`,
      body: { name: f.c1.name, subject: f.c1.subject, period: f.c1.period },
    }),
    expect: statuses(TEACHERS, { 'A.owner': 200 }, 404),
  },
  'DELETE /api/classes/{id}': {
    access: TEACHERS,
    request: async (ctx) => ({ path: `/api/classes/${await ctx.take('class')}` }),
    expect: statuses(TEACHERS, { 'A.owner': 204 }, 404),
  },
  'PUT /api/classes/{id}/archive': {
    access: TEACHERS,
    request: async (ctx) => ({ path: `/api/classes/${await ctx.take('class')}/archive` }),
    expect: statuses(TEACHERS, { 'A.owner': 200 }, 404),
  },
  'PUT /api/classes/{id}/restore': {
    access: TEACHERS,
    request: async (ctx) => ({ path: `/api/classes/${await ctx.take('archivedClass')}/restore` }),
    expect: statuses(TEACHERS, { 'A.owner': 200 }, 404),
  },
  'GET /api/classes/{id}/students': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/classes/${f.c1.id}/students` }),
    expect: statuses(TEACHERS, { 'A.owner': 200 }, 404),
  },
  'DELETE /api/classes/{id}/students/{studentId}': {
    access: TEACHERS,
    request: async (ctx) => ({ path: `/api/classes/${await ctx.take('classWithMember')}` }),
    expect: statuses(TEACHERS, { 'A.owner': 204 }, 404),
  },
  // Co-teachers (issue 30, item 8): only the owner adds or removes; others do not find the class.
  'GET /api/classes/{id}/teachers': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/classes/${f.c1.id}/teachers` }),
    expect: statuses(TEACHERS, { 'A.owner': 200 }, 404),
  },
  'POST /api/classes/{id}/teachers': {
    access: TEACHERS,
    request: async (ctx) => {
      const [classId, email] = (await ctx.take('coTeacherCandidate')).split(' ');
      return { path: `/api/classes/${classId}/teachers`, body: { email } };
    },
    expect: statuses(TEACHERS, { 'A.owner': 201 }, 404),
  },
  'DELETE /api/classes/{id}/teachers/{teacherId}': {
    access: TEACHERS,
    request: async (ctx) => ({ path: `/api/classes/${await ctx.take('classWithCoTeacher')}` }),
    expect: statuses(TEACHERS, { 'A.owner': 204 }, 404),
  },
  // Each student joins a class of a teacher of their own district (codes work across tenants too,
  // which classes.contract.test.ts covers; here it would blur the tenant-isolation checks).
  'POST /api/classes/join': {
    access: STUDENTS,
    request: async (ctx, actor) => ({
      path: '/api/classes/join',
      body: { joinCode: await ctx.take(actor.startsWith('B.') ? 'joinableB' : 'joinableA') },
    }),
    expect: statuses(STUDENTS, {}, 200),
  },
  // The signed-out join page's check of a code: anyone, and only the class's name comes back.
  'GET /api/classes/join-code': {
    access: 'anyone',
    request: async (ctx) => ({ path: `/api/classes/join-code?joinCode=${await ctx.take('joinableA')}` }),
    expect: statuses('anyone', {}, 200),
  },
  // Joining from the browse list is for the student's own district only.
  'POST /api/classes/{id}/join-direct': {
    access: STUDENTS,
    request: async (ctx) => ({ path: `/api/classes/${await ctx.take('class')}/join-direct` }),
    expect: statuses(STUDENTS, { 'B.student': 404 }, 200),
  },
  'GET /api/student/classes': {
    access: STUDENTS,
    request: fixed('/api/student/classes'),
    expect: statuses(STUDENTS, {}, 200),
  },
  'GET /api/all-classes': {
    access: STUDENTS,
    request: fixed('/api/all-classes'),
    expect: statuses(STUDENTS, {}, 200),
  },

  // ---- standards catalogue (assessment): admins import for their own district -----------------
  // A new CFDocument each time: every admin's import is a first one (201) in their own district.
  'POST /api/standards/frameworks': {
    access: ['admin'],
    request: () => ({ path: '/api/standards/frameworks', body: matrixCasePackage() }),
    expect: statuses(['admin'], {}, 201),
  },
  'GET /api/standards/frameworks': {
    access: TEACHERS,
    request: fixed('/api/standards/frameworks'),
    expect: statuses(TEACHERS, {}, 200),
  },
  'GET /api/standards/search': {
    access: TEACHERS,
    request: fixed('/api/standards/search?q=6.RP&grade=6&subject=Mathematics&limit=5'),
    expect: statuses(TEACHERS, {}, 200),
  },
  // ---- assessments ----------------------------------------------------------------------------
  'GET /api/assessments': {
    access: TEACHERS,
    request: fixed('/api/assessments'),
    expect: statuses(TEACHERS, {}, 200),
  },
  // The body names C1: only its teacher may create an assessment in it.
  'POST /api/assessments': {
    access: TEACHERS,
    request: ({ f }) => ({
      path: '/api/assessments',
      body: {
        title: 'Matrix check',
        contentToAssess: 'Fractions name parts of a whole. The denominator tells how many equal parts there are.',
        questionType: 'true_false',
        numberOfQuestions: 1,
        description: '',
        classId: f.c1.id,
      },
    }),
    expect: statuses(TEACHERS, { 'A.owner': 201 }, 404),
  },
  'GET /api/classes/{id}/assessments': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/classes/${f.c1.id}/assessments` }),
    expect: statuses(TEACHERS, { 'A.owner': 200 }, 404),
  },
  'GET /api/assessments/{id}': {
    access: EVERYONE,
    request: ({ f }) => ({ path: `/api/assessments/${f.a1.id}` }),
    expect: statuses(EVERYONE, { 'A.owner': 200, 'A.student': 200, 'A.classmate': 200 }, 404),
  },
  'PUT /api/assessments/{id}': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/assessments/${f.a1.id}`, body: { isActive: true } }),
    expect: statuses(TEACHERS, { 'A.owner': 200 }, 404),
  },
  'DELETE /api/assessments/{id}': {
    access: TEACHERS,
    request: async (ctx) => ({ path: `/api/assessments/${await ctx.take('assessment')}` }),
    expect: statuses(TEACHERS, { 'A.owner': 204 }, 404),
  },
  'POST /api/assessments/{id}/assign': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/assessments/${f.a1.id}/assign` }),
    expect: statuses(TEACHERS, { 'A.owner': 200 }, 404),
  },
  // A draft copy into one of the teacher's classes: the class's teacher only (others do not see the source).
  'POST /api/assessments/{id}/copy': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/assessments/${f.a1.id}/copy`, body: { classId: f.c1.id } }),
    expect: statuses(TEACHERS, { 'A.owner': 201 }, 404),
  },
  // Students without email (docs/adr/015): the class's teachers only (an admin is no teacher of
  // it: 403 by role); the sign-ins with a made-up class code or card find nothing.
  'GET /api/classes/{id}/student-logins': {
    access: ['teacher'],
    request: ({ f }) => ({ path: `/api/classes/${f.c1.id}/student-logins` }),
    expect: statuses(['teacher'], { 'A.owner': 200 }, 404),
  },
  'POST /api/classes/{id}/student-logins': {
    access: ['teacher'],
    request: ({ f }) => ({
      path: `/api/classes/${f.c1.id}/student-logins`,
      body: {
        firstName: 'Matrix',
        lastName: 'Kid',
        username: `matrix.${randomUUID().slice(0, 8)}`,
        secret: { kind: 'picture', picture: 'star' },
      },
    }),
    expect: statuses(['teacher'], { 'A.owner': 201 }, 404),
  },
  // A.student has an e-mail to sign in with: the owner's answer is 409 has_email (the 200 of a
  // rostered student without one: services/identity/test/student-logins.test.ts).
  'PUT /api/classes/{id}/student-logins/{studentId}': {
    access: ['teacher'],
    request: ({ f }) => ({
      path: `/api/classes/${f.c1.id}/student-logins/${f.s1}`,
      body: { username: `matrix.${randomUUID().slice(0, 8)}`, secret: { kind: 'picture', picture: 'sun' } },
    }),
    expect: statuses(['teacher'], { 'A.owner': 409 }, 404),
  },
  // The district's admin only; A.student has an e-mail (409 has_email), B's admin finds no such student.
  'PUT /api/district/students/{id}/sign-in': {
    access: ['admin'],
    request: ({ f }) => ({
      path: `/api/district/students/${f.s1}/sign-in`,
      body: { username: `matrix.${randomUUID().slice(0, 8)}`, secret: { kind: 'picture', picture: 'sun' } },
    }),
    expect: statuses(['admin'], { 'A.admin': 409 }, 404),
  },
  'PUT /api/classes/{id}/student-logins/{studentId}/secret': {
    access: ['teacher'],
    // A.student is no account without email: not found for the owner too.
    request: ({ f }) => ({
      path: `/api/classes/${f.c1.id}/student-logins/${f.s1}/secret`,
      body: { secret: { kind: 'words', words: 'red kite' } },
    }),
    expect: statuses(['teacher'], {}, 404),
  },
  'POST /api/classes/{id}/login-cards': {
    access: ['teacher'],
    request: ({ f }) => ({ path: `/api/classes/${f.c1.id}/login-cards` }),
    expect: statuses(['teacher'], { 'A.owner': 201 }, 404),
  },
  'DELETE /api/classes/{id}/login-cards': {
    access: ['teacher'],
    request: ({ f }) => ({ path: `/api/classes/${f.c1.id}/login-cards` }),
    expect: statuses(['teacher'], { 'A.owner': 200 }, 404),
  },
  'POST /api/auth/class-code': {
    access: 'anyone',
    request: fixed('/api/auth/class-code', { classCode: 'NOSUCH9' }),
    expect: statuses('anyone', {}, 404),
  },
  'POST /api/auth/class-code/login': {
    access: 'anyone',
    request: fixed('/api/auth/class-code/login', {
      classCode: 'NOSUCH9',
      studentId: '00000000-0000-4000-8000-000000000000',
      secret: { kind: 'picture', picture: 'cat' },
    }),
    expect: statuses('anyone', {}, 404),
  },
  'POST /api/auth/login-card': {
    access: 'anyone',
    request: fixed('/api/auth/login-card', { token: 'matrix-made-up-card' }),
    expect: statuses('anyone', {}, 403),
  },
  // A student's accommodations: the class's teacher and the district's admin; a PUT that changes
  // nothing (all off stays all off), so every cell can run it.
  'GET /api/classes/{id}/students/{studentId}/accommodations': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/classes/${f.c1.id}/students/${f.s1}/accommodations` }),
    expect: statuses(TEACHERS, { 'A.owner': 200, 'A.admin': 200 }, 404),
  },
  'PUT /api/classes/{id}/students/{studentId}/accommodations': {
    access: TEACHERS,
    request: ({ f }) => ({
      path: `/api/classes/${f.c1.id}/students/${f.s1}/accommodations`,
      body: { answerMasking: false },
    }),
    expect: statuses(TEACHERS, { 'A.owner': 200, 'A.admin': 200 }, 404),
  },
  // A class's list of its students' accommodations: the same rule as one student's.
  'GET /api/classes/{id}/accommodations': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/classes/${f.c1.id}/accommodations` }),
    expect: statuses(TEACHERS, { 'A.owner': 200, 'A.admin': 200 }, 404),
  },
  // A student's own accommodations only: there is no id to ask for anyone else's.
  'GET /api/student/accommodations': {
    access: STUDENTS,
    request: fixed('/api/student/accommodations'),
    expect: statuses(STUDENTS, {}, 200),
  },
  'GET /api/assessments/{id}/qti': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/assessments/${f.a1.id}/qti` }),
    expect: statuses(TEACHERS, { 'A.owner': 200 }, 404),
  },
  // Without a package the body is refused before the class is looked at: the same 400 for every teacher.
  'POST /api/qti/imports': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/qti/imports?classId=${f.c1.id}` }),
    expect: statuses(TEACHERS, {}, 400),
  },
  'GET /api/assessments/{id}/questions': {
    access: EVERYONE,
    request: ({ f }) => ({ path: `/api/assessments/${f.a1.id}/questions` }),
    expect: statuses(EVERYONE, { 'A.owner': 200, 'A.student': 200, 'A.classmate': 200 }, 404),
    // The classmate has no result yet: no keys for them.
    keys: { 'A.owner': KEYS, 'A.student': KEYS },
  },
  // Try as a student: the questions without keys, and a score that stores nothing (the class's teacher only).
  'GET /api/assessments/{id}/student-preview': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/assessments/${f.a1.id}/student-preview` }),
    expect: statuses(TEACHERS, { 'A.owner': 200 }, 404),
  },
  'POST /api/assessments/{id}/student-preview/score': {
    access: TEACHERS,
    request: ({ f }) => ({
      path: `/api/assessments/${f.a1.id}/student-preview/score`,
      body: { answers: [{ questionId: f.a1.questionIds[0], answer: 'x' }] },
    }),
    expect: statuses(TEACHERS, { 'A.owner': 200 }, 404),
    // The review after a scored try shows the keys, as a result does: the teacher's own.
    keys: { 'A.owner': KEYS },
  },
  'POST /api/assessments/{id}/questions': {
    access: TEACHERS,
    request: async (ctx) => ({ path: `/api/assessments/${await ctx.take('draft')}/questions`, body: MC }),
    expect: statuses(TEACHERS, { 'A.owner': 201 }, 404),
    keys: { 'A.owner': KEYS },
  },
  'PUT /api/questions/{id}': {
    access: TEACHERS,
    request: async (ctx) => ({ path: `/api/questions/${await ctx.take('question')}`, body: MC }),
    expect: statuses(TEACHERS, { 'A.owner': 200 }, 404),
    keys: { 'A.owner': KEYS },
  },
  'PUT /api/assessments/{id}/questions/order': {
    access: TEACHERS,
    // A1 in the order it was made: a reorder is allowed after submissions and changes nothing here.
    request: ({ f }) => ({
      path: `/api/assessments/${f.a1.id}/questions/order`,
      body: { questionIds: f.a1.questionIds },
    }),
    expect: statuses(TEACHERS, { 'A.owner': 200 }, 404),
    keys: { 'A.owner': KEYS },
  },
  'POST /api/questions/{id}/duplicate': {
    access: TEACHERS,
    request: async (ctx) => ({ path: `/api/questions/${await ctx.take('question')}/duplicate` }),
    expect: statuses(TEACHERS, { 'A.owner': 201 }, 404),
    keys: { 'A.owner': KEYS },
  },
  'DELETE /api/questions/{id}': {
    access: TEACHERS,
    request: async (ctx) => ({ path: `/api/questions/${await ctx.take('question')}` }),
    expect: statuses(TEACHERS, { 'A.owner': 204 }, 404),
  },
  'GET /api/assessments/{id}/responses': {
    access: EVERYONE,
    request: ({ f }) => ({ path: `/api/assessments/${f.a1.id}/responses` }),
    // Each student only their own answers (the leak check looks for the other's).
    expect: statuses(EVERYONE, { 'A.owner': 200, 'A.student': 200, 'A.classmate': 200 }, 404),
  },
  'GET /api/student/available-assessments': {
    access: STUDENTS,
    request: fixed('/api/student/available-assessments'),
    expect: statuses(STUDENTS, {}, 200),
  },
  // The body names A1: the student who submitted gets 409, the classmate saves (the same answer
  // again), students outside the class 404.
  'POST /api/responses': {
    access: STUDENTS,
    request: ({ f }) => ({
      path: '/api/responses',
      body: { assessmentId: f.a1.id, questionId: f.a1.questionIds[0], answer: '1/2' },
    }),
    expect: statuses(STUDENTS, { 'A.student': 409, 'A.classmate': 200 }, 404),
  },
  'POST /api/results': {
    access: STUDENTS,
    request: async (ctx) => ({ path: '/api/results', body: { assessmentId: await ctx.take('takeable') } }),
    expect: statuses(STUDENTS, { 'A.student': 201, 'A.classmate': 201 }, 404),
    // The submit reply is the student's own scored result.
    keys: { 'A.student': KEYS, 'A.classmate': KEYS },
  },
  // The owner's class's result: its student and its teacher (the admin reads results in analytics).
  'GET /api/results/{id}': {
    access: EVERYONE,
    request: ({ f }) => ({ path: `/api/results/${f.r1}` }),
    expect: statuses(EVERYONE, { 'A.owner': 200, 'A.student': 200 }, 404),
    keys: { 'A.owner': KEYS, 'A.student': KEYS },
  },
  // Retakes and reopening: the teacher of the result's class only (404 for any other teacher, never
  // confirming the result); the students and admins are refused by role.
  'POST /api/results/{id}/retake': {
    access: ['teacher'],
    request: async (ctx) => ({ path: `/api/results/${await ctx.take('submittedResult')}/retake` }),
    expect: statuses(['teacher'], { 'A.owner': 200 }, 404),
  },
  'POST /api/results/{id}/reopen': {
    access: ['teacher'],
    request: async (ctx) => ({ path: `/api/results/${await ctx.take('submittedResult')}/reopen` }),
    expect: statuses(['teacher'], { 'A.owner': 200 }, 404),
  },
  'GET /api/student/results': {
    access: STUDENTS,
    request: fixed('/api/student/results'),
    expect: statuses(STUDENTS, {}, 200),
  },
  // Grading by hand: only the teacher of the result's class. R1's second answer is wrong (A.student
  // answered False): 0 points on it leaves R1 as it was.
  'PATCH /api/results/{resultId}/responses/{questionId}': {
    access: TEACHERS,
    request: ({ f }) => ({
      path: `/api/results/${f.r1}/responses/${f.a1.questionIds[1]}`,
      body: { earnedPoints: 0, feedback: 'Look at the denominators again.' },
    }),
    expect: statuses(TEACHERS, { 'A.owner': 200 }, 404),
    keys: { 'A.owner': KEYS },
  },
  'PUT /api/results/{id}/feedback': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/results/${f.r1}/feedback`, body: { feedback: 'Keep practising fractions.' } }),
    expect: statuses(TEACHERS, { 'A.owner': 200 }, 404),
    keys: { 'A.owner': KEYS },
  },
  'GET /api/results/{id}/regrades': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/results/${f.r1}/regrades` }),
    expect: statuses(TEACHERS, { 'A.owner': 200 }, 404),
  },
  'GET /api/assessments/{id}/to-review': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/assessments/${f.a1.id}/to-review` }),
    expect: statuses(TEACHERS, { 'A.owner': 200 }, 404),
    keys: { 'A.owner': KEYS },
  },

  // ---- generation and practice ----------------------------------------------------------------
  'GET /api/assessments/{id}/generation': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/assessments/${f.a1.id}/generation` }),
    expect: statuses(TEACHERS, { 'A.owner': 200 }, 404),
  },
  // A1's generation succeeded: nothing to retry for its teacher (409); for anyone else it is not found.
  'POST /api/assessments/{id}/generation/retry': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/assessments/${f.a1.id}/generation/retry` }),
    expect: statuses(TEACHERS, { 'A.owner': 409 }, 404),
  },
  // Level-raising practice: the teacher sees the keys; the student practises without them (the
  // keys stay on the server until the practice is scored); the classmate has no result yet.
  'GET /api/assessments/{id}/support-material/{type}': {
    access: EVERYONE,
    request: ({ f }) => ({ path: `/api/assessments/${f.a1.id}/support-material/support` }),
    expect: statuses(EVERYONE, { 'A.owner': 200, 'A.student': 200 }, 404),
    keys: { 'A.owner': KEYS },
  },
  // Nothing answered: scored 0, the level stays.
  'POST /api/assessments/{id}/support-completion': {
    access: STUDENTS,
    request: ({ f }) => ({
      path: `/api/assessments/${f.a1.id}/support-completion`,
      body: { type: 'support', responses: {} },
    }),
    expect: statuses(STUDENTS, { 'A.student': 200 }, 404),
  },
  'GET /api/support-content/{resultId}': {
    access: EVERYONE,
    request: ({ f }) => ({ path: `/api/support-content/${f.r1}` }),
    expect: statuses(EVERYONE, { 'A.owner': 200, 'A.student': 200 }, 404),
  },
  'POST /api/support-content/{resultId}/submit': {
    access: EVERYONE,
    request: ({ f }) => ({ path: `/api/support-content/${f.r1}/submit`, body: { answers: {} } }),
    expect: statuses(EVERYONE, { 'A.owner': 200, 'A.student': 200 }, 404),
  },
  'POST /api/support-content/{resultId}/restart': {
    access: EVERYONE,
    request: ({ f }) => ({ path: `/api/support-content/${f.r1}/restart` }),
    expect: statuses(EVERYONE, { 'A.owner': 200, 'A.student': 200 }, 404),
  },
  'GET /api/assessments/{id}/recommendations/{type}': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/assessments/${f.a1.id}/recommendations/support` }),
    expect: statuses(TEACHERS, { 'A.owner': 200 }, 404),
    // The most missed and most correct questions, with their keys: the teacher's own.
    keys: { 'A.owner': KEYS },
  },

  // ---- common assessments (assessment): written and published by the district admin, listed and
  // assigned by the teachers it reaches (published to every class of district A: A.owner's C1).
  'POST /api/common-assessments': {
    access: ['admin'],
    request: fixed('/api/common-assessments', { title: 'District benchmark', questions: [MC] }),
    expect: statuses(['admin'], {}, 201),
  },
  'GET /api/common-assessments': {
    access: TEACHERS,
    request: fixed('/api/common-assessments'),
    expect: statuses(TEACHERS, {}, 200),
  },
  'GET /api/common-assessments/targets': {
    access: ['admin'],
    request: fixed('/api/common-assessments/targets'),
    expect: statuses(['admin'], {}, 200),
  },
  'GET /api/common-assessments/{id}': {
    access: TEACHERS,
    request: async (ctx) => ({ path: `/api/common-assessments/${await ctx.take('commonPublished')}` }),
    // Published to every class of district A: both of its teachers have one (B's do not).
    expect: statuses(TEACHERS, { 'A.admin': 200, 'A.owner': 200, 'A.teacher': 200 }, 404),
    keys: { 'A.admin': KEYS, 'A.owner': KEYS, 'A.teacher': KEYS },
  },
  'PUT /api/common-assessments/{id}/questions': {
    access: ['admin'],
    request: async (ctx) => ({
      path: `/api/common-assessments/${await ctx.take('commonDraft')}/questions`,
      body: { questions: [MC] },
    }),
    expect: statuses(['admin'], { 'A.admin': 200 }, 404),
    keys: { 'A.admin': KEYS },
  },
  'POST /api/common-assessments/{id}/publish': {
    access: ['admin'],
    request: async (ctx) => ({ path: `/api/common-assessments/${await ctx.take('commonDraft')}/publish`, body: {} }),
    expect: statuses(['admin'], { 'A.admin': 200 }, 404),
  },
  // Into A.owner's C1: not A's other teacher's class (404), B's teacher does not see it.
  'POST /api/common-assessments/{id}/assign': {
    access: ['teacher'],
    request: async (ctx) => ({
      path: `/api/common-assessments/${await ctx.take('commonPublished')}/assign`,
      body: { classId: ctx.f.c1.id },
    }),
    expect: statuses(['teacher'], { 'A.owner': 201 }, 404),
  },
  // The roll-up (analytics): the district admin's own district only; another district's admin
  // gets an empty report (nothing of district A), as for an id never assigned.
  'GET /api/common-assessments/{id}/report': {
    access: ['admin'],
    request: async (ctx) => ({ path: `/api/common-assessments/${await ctx.take('commonPublished')}/report` }),
    expect: statuses(['admin'], {}, 200),
  },
  'GET /api/common-assessments/{id}/report/export': {
    access: ['admin'],
    request: async (ctx) => ({
      path: `/api/common-assessments/${await ctx.take('commonPublished')}/report/export`,
    }),
    expect: statuses(['admin'], {}, 200),
  },
  // ---- item bank (assessment): a teacher's items, seen by whom they are shared with; changed by
  // their author and the district's admin (403 to another teacher who sees it; 404 to outsiders).
  'GET /api/bank/items': {
    access: TEACHERS,
    request: fixed('/api/bank/items?q=fraction&type=multiple_choice&page=1&pageSize=5'),
    expect: statuses(TEACHERS, {}, 200),
    keys: { 'A.owner': KEYS, 'A.teacher': KEYS, 'A.admin': KEYS, 'B.teacher': KEYS, 'B.admin': KEYS },
  },
  // Saving one of A1's questions: its teacher only.
  'POST /api/bank/items': {
    access: TEACHERS,
    request: ({ f }) => ({ path: '/api/bank/items', body: { questionId: f.a1.questionIds[0], visibility: 'private' } }),
    expect: statuses(TEACHERS, { 'A.owner': 201 }, 404),
    keys: { 'A.owner': KEYS },
  },
  'GET /api/bank/items/{id}': {
    access: TEACHERS,
    request: async (ctx) => ({ path: `/api/bank/items/${await ctx.take('bankShared')}` }),
    expect: statuses(TEACHERS, { 'A.owner': 200, 'A.teacher': 200, 'A.admin': 200 }, 404),
    keys: { 'A.owner': KEYS, 'A.teacher': KEYS, 'A.admin': KEYS },
  },
  'PUT /api/bank/items/{id}': {
    access: TEACHERS,
    request: async (ctx) => ({ path: `/api/bank/items/${await ctx.take('bankShared')}`, body: MC }),
    expect: statuses(TEACHERS, { 'A.owner': 200, 'A.admin': 200, 'A.teacher': 403 }, 404),
    keys: { 'A.owner': KEYS, 'A.admin': KEYS },
  },
  'DELETE /api/bank/items/{id}': {
    access: TEACHERS,
    request: async (ctx) => ({ path: `/api/bank/items/${await ctx.take('bankShared')}` }),
    expect: statuses(TEACHERS, { 'A.owner': 204, 'A.admin': 204, 'A.teacher': 403 }, 404),
  },
  // Into A.owner's draft: the assessment's teacher only (an item seen by others changes nothing).
  'POST /api/assessments/{id}/questions/from-bank': {
    access: TEACHERS,
    request: async (ctx) => ({
      path: `/api/assessments/${await ctx.take('draft')}/questions/from-bank`,
      body: { itemIds: [await ctx.take('bankShared')] },
    }),
    expect: statuses(TEACHERS, { 'A.owner': 201 }, 404),
    keys: { 'A.owner': KEYS },
  },
  // ---- analytics: a teacher's own classes, the district admin's whole district ------------------
  'GET /api/classes/{id}/results': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/classes/${f.c1.id}/results` }),
    expect: statuses(TEACHERS, { 'A.owner': 200, 'A.admin': 200 }, 404),
  },
  'GET /api/all-results': {
    access: TEACHERS,
    request: fixed('/api/all-results'),
    expect: statuses(TEACHERS, {}, 200),
  },
  'GET /api/classes/{id}/grid': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/classes/${f.c1.id}/grid` }),
    expect: statuses(TEACHERS, { 'A.owner': 200, 'A.admin': 200 }, 404),
  },
  // Mastery of standards: the class's teacher and the admin; a student's own, their teacher's, their admin's.
  'GET /api/classes/{id}/mastery': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/classes/${f.c1.id}/mastery` }),
    expect: statuses(TEACHERS, { 'A.owner': 200, 'A.admin': 200 }, 404),
  },
  'GET /api/classes/{id}/mastery/export': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/classes/${f.c1.id}/mastery/export` }),
    expect: statuses(TEACHERS, { 'A.owner': 200, 'A.admin': 200 }, 404),
  },
  'GET /api/mastery/students/{studentId}': {
    access: EVERYONE,
    request: ({ f }) => ({ path: `/api/mastery/students/${f.s1}` }),
    expect: statuses(EVERYONE, { 'A.owner': 200, 'A.admin': 200, 'A.student': 200 }, 404),
  },
  'GET /api/mastery/students/{studentId}/export': {
    access: EVERYONE,
    request: ({ f }) => ({ path: `/api/mastery/students/${f.s1}/export` }),
    expect: statuses(EVERYONE, { 'A.owner': 200, 'A.admin': 200, 'A.student': 200 }, 404),
  },
  'GET /api/mastery/district': {
    access: ['admin'],
    request: fixed('/api/mastery/district'),
    expect: statuses(['admin'], {}, 200),
  },
  'GET /api/mastery/district/export': {
    access: ['admin'],
    request: fixed('/api/mastery/district/export'),
    expect: statuses(['admin'], {}, 200),
  },
  // Item statistics list each question with its key: for the class's teacher and the admin.
  'GET /api/assessments/{id}/results': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/assessments/${f.a1.id}/results` }),
    expect: statuses(TEACHERS, { 'A.owner': 200, 'A.admin': 200 }, 404),
    keys: { 'A.owner': KEYS, 'A.admin': KEYS },
  },
  // The item analysis (which option is right, who chose and saw each): as the item statistics.
  'GET /api/assessments/{id}/item-analysis': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/assessments/${f.a1.id}/item-analysis` }),
    expect: statuses(TEACHERS, { 'A.owner': 200, 'A.admin': 200 }, 404),
  },
  // Live progress: counts only (no answers, no keys), for the class's teacher and the admin.
  'GET /api/assessments/{id}/progress': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/assessments/${f.a1.id}/progress` }),
    expect: statuses(TEACHERS, { 'A.owner': 200, 'A.admin': 200 }, 404),
  },
  'GET /api/dashboard/students': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/dashboard/students?classId=${f.c1.id}` }),
    expect: statuses(TEACHERS, { 'A.owner': 200, 'A.admin': 200 }, 404),
  },
  'GET /api/dashboard/usage': {
    access: TEACHERS,
    request: fixed('/api/dashboard/usage'),
    expect: statuses(TEACHERS, {}, 200),
  },
  'GET /api/dashboard/live': {
    access: TEACHERS,
    stream: true,
    request: ({ f }) => ({ path: `/api/dashboard/live?classId=${f.c1.id}` }),
    expect: statuses(TEACHERS, { 'A.owner': 200, 'A.admin': 200 }, 404),
  },
  'GET /api/reports': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/reports?classIds=${f.c1.id}&timeframe=all&type=detailed` }),
    expect: statuses(TEACHERS, { 'A.owner': 200, 'A.admin': 200 }, 404),
  },
  'GET /api/reports/export': {
    access: TEACHERS,
    request: ({ f }) => ({ path: `/api/reports/export?classIds=${f.c1.id}&timeframe=all&type=detailed&format=csv` }),
    expect: statuses(TEACHERS, { 'A.owner': 200, 'A.admin': 200 }, 404),
  },
  'GET /api/admin/stats': {
    access: ['admin'],
    request: fixed('/api/admin/stats'),
    expect: statuses(['admin'], {}, 200),
  },
};
