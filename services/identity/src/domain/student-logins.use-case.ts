// Student accounts without email (docs/adr/015-students-without-email.md): a teacher of a class
// makes them (username, picture or word password) and resets their passwords; the students sign in
// with the class code, their name and their picture or words, or with a printed login card.
import { randomUUID } from 'node:crypto';
import { create } from '@bufbuild/protobuf';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import {
  AppError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  TooManyRequestsError,
  UnauthorizedError,
  ValidationError,
} from '@checkpoint/service-kit';
import { enqueueEvent, StudentAccountCreatedSchema } from '@checkpoint/events';
import {
  DuplicateUsernameError,
  type LoginClassRow,
  type NewLogin,
  type StudentLoginRow,
  type StudentLoginsRepository,
} from '../data-access/student-logins.repository.ts';
import { hashPassword, verifyPassword } from './password.ts';
import type { Limiter, UserEventWriter } from './ports.ts';
import { normalizeClassCode, normalizeUsername, secretText, shownName, type StudentSecret } from './student-logins.ts';
import { randomToken, sha256Hex } from './tokens.ts';
import type { UserRecord } from './user.ts';
import type { Tx } from '../data-access/prisma.ts';

const DAY_MS = 86_400_000;

export interface StudentLoginDeps {
  logins: StudentLoginsRepository;
  events: UserEventWriter;
  /** This service's name, the events' source. */
  source: string;
  /** The first-party address a card's QR opens (PUBLIC_URL). */
  publicUrl: string;
  /** How long a printed card works. */
  cardDays: number;
  limits: {
    /** Wrong pictures or words per student: past it, the student is locked for the window. */
    perStudent: Limiter;
    /** Wrong pictures or words per class code (a whole class being guessed). */
    perClassCode: Limiter;
    /** Class-code look-ups and card sign-ins per client address. */
    perAddress: Limiter;
  };
  now?: () => Date;
}

export interface Teacher {
  userId: string;
  role: string;
}

export const UNKNOWN_CLASS_CODE = 'No class has this code. Check the code with your teacher.';
export const WRONG_SECRET = 'That is not your picture or words. Try again, or ask your teacher.';
export const CARD_REFUSED = 'This login card no longer works. Ask your teacher for a new card.';

function lockedOut(retryAfterSeconds: number): TooManyRequestsError {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return new TooManyRequestsError(
    `Too many tries. Please wait ${minutes} minute${minutes === 1 ? '' : 's'}, or ask your teacher for help.`,
    retryAfterSeconds,
  );
}

/** The class, when the caller teaches it (owner or co-teacher); 404 otherwise (no probing). */
async function taughtClass(deps: StudentLoginDeps, teacher: Teacher, classId: string): Promise<LoginClassRow> {
  const cls = await deps.logins.findClass(classId);
  if (!cls || !cls.teacherIds.includes(teacher.userId)) throw new NotFoundError('Class not found');
  return cls;
}

export interface StudentLoginView {
  id: string;
  firstName: string;
  lastName: string;
  username: string;
  /** How the student signs in with the class code. */
  signInWith: 'picture' | 'words';
  createdAt: string;
  signInChangedAt: string;
}

function view(row: StudentLoginRow): StudentLoginView {
  return {
    id: row.userId,
    firstName: row.firstName,
    lastName: row.lastName,
    username: row.username,
    signInWith: row.secretKind,
    createdAt: row.createdAt.toISOString(),
    signInChangedAt: row.updatedAt.toISOString(),
  };
}

/** The class page's "Student logins": its accounts without email and its cards in force. */
export async function listStudentLogins(deps: StudentLoginDeps, teacher: Teacher, classId: string) {
  const cls = await taughtClass(deps, teacher, classId);
  const now = (deps.now ?? (() => new Date()))();
  const [rows, waiting, cards] = await Promise.all([
    deps.logins.listForClass(classId),
    deps.logins.withoutSignIn(classId),
    deps.logins.cardsInForce(classId, now),
  ]);
  return {
    classCode: cls.joinCode,
    students: rows.map(view),
    withoutSignIn: waiting,
    cards: { inForce: cards.count, expiresAt: cards.expiresAt?.toISOString() ?? null },
  };
}

export interface NewStudentInput {
  firstName: string;
  lastName: string;
  username: string;
  secret: StudentSecret;
}

/** Makes the account in the class's tenant and enrols it (StudentAccountCreated: the class service). */
export async function createStudentLogin(
  deps: StudentLoginDeps,
  teacher: Teacher,
  classId: string,
  input: NewStudentInput,
): Promise<StudentLoginView> {
  const cls = await taughtClass(deps, teacher, classId);
  if (!cls.active) throw new ConflictError('This class is archived: restore it to add students.', 'class_archived');
  const username = normalizeUsername(input.username);
  if (await deps.logins.usernameTaken(cls.tenantId, username)) throw usernameTaken();
  const secretHash = await hashPassword(secretText(input.secret));
  const id = randomUUID();
  try {
    await deps.logins.transaction(async (tx) => {
      const user = await deps.logins.create(tx, {
        id,
        tenantId: cls.tenantId,
        classId,
        firstName: input.firstName.trim(),
        lastName: input.lastName.trim(),
        username,
        secretKind: input.secret.kind,
        secretHash,
        createdBy: teacher.userId,
      });
      await deps.events.registered(tx, user);
      await enqueueEvent(tx, {
        source: deps.source,
        schema: StudentAccountCreatedSchema,
        message: create(StudentAccountCreatedSchema, {
          userId: user.id,
          tenantId: user.tenantId,
          classId,
          createdBy: teacher.userId,
          occurredAt: timestampNow(),
        }),
        key: user.id,
        tenantId: user.tenantId,
      });
    });
  } catch (err) {
    if (err instanceof DuplicateUsernameError) throw usernameTaken();
    throw err;
  }
  const row = await deps.logins.findLogin(id);
  if (!row) throw new Error('student login vanished after its creation');
  return view(row);
}

const usernameTaken = () =>
  new AppError('conflict', 'username_taken', 'This username is taken in your district. Choose another.', {
    username: 'This username is taken in your district. Choose another.',
  });

/**
 * An address no mail reaches: none (a teacher-made account), or a placeholder under the reserved
 * `.invalid` domain (a rostered student without an email, an LMS user without one).
 */
export function hasNoMailbox(email: string | null | undefined): boolean {
  return !email || /\.invalid$/i.test(email);
}

/** A student of `tenantId` who may get a picture or words: enabled, and no mailbox to sign in with. */
async function studentWithoutMailbox(deps: StudentLoginDeps, tenantId: string, studentId: string) {
  const user = await deps.logins.findUser(studentId);
  if (!user || user.tenantId !== tenantId || user.role !== 'student' || user.disabledAt)
    throw new NotFoundError('Student not found');
  if (!hasNoMailbox(user.email))
    throw new ConflictError('This student signs in with their e-mail address.', 'has_email');
  return user;
}

/** Adds the login row to an existing account (the username checked first; a race ends as a 409). */
async function addLogin(deps: StudentLoginDeps, tx: Tx, input: NewLogin) {
  try {
    await deps.logins.addLogin(tx, input);
  } catch (err) {
    if (err instanceof DuplicateUsernameError) throw usernameTaken();
    throw err;
  }
}

/**
 * A student already in the class whose account has no mailbox (rostered without an email, or from
 * an LMS) gets a username and a picture or words, so that they sign in with the class code and on
 * login cards as the teacher's own accounts do. A student who already has one is a 409 (reset it).
 */
export async function setUpStudentLogin(
  deps: StudentLoginDeps,
  teacher: Teacher,
  classId: string,
  studentId: string,
  input: { username: string; secret: StudentSecret },
): Promise<StudentLoginView> {
  const cls = await taughtClass(deps, teacher, classId);
  if (!(await deps.logins.isMember(classId, studentId))) throw new NotFoundError('Student not found');
  await studentWithoutMailbox(deps, cls.tenantId, studentId);
  if (await deps.logins.findLogin(studentId)) throw signInExists();
  const username = normalizeUsername(input.username);
  if (await deps.logins.usernameTaken(cls.tenantId, username)) throw usernameTaken();
  const login = {
    userId: studentId,
    tenantId: cls.tenantId,
    username,
    secretKind: input.secret.kind,
    secretHash: await hashPassword(secretText(input.secret)),
    createdBy: teacher.userId,
  };
  await deps.logins.transaction((tx) => addLogin(deps, tx, login));
  return loginView(deps, studentId);
}

const signInExists = () =>
  new ConflictError('This student already has a picture or words: reset them instead.', 'has_sign_in');

async function loginView(deps: StudentLoginDeps, studentId: string): Promise<StudentLoginView> {
  const row = await deps.logins.findLogin(studentId);
  if (!row) throw new NotFoundError('Student not found');
  return view(row);
}

export interface DistrictAdmin {
  userId: string;
  tenantId: string;
}

/**
 * A district admin sets a student's picture or words, for any student of the district without a
 * mailbox: a first one (the username is then required) or a new one (the username changes when
 * given). The old picture or words stop working at once (the route is in the district's audit log).
 */
export async function setStudentSignInAsAdmin(
  deps: StudentLoginDeps,
  admin: DistrictAdmin,
  studentId: string,
  input: { username?: string | undefined; secret: StudentSecret },
): Promise<StudentLoginView> {
  await studentWithoutMailbox(deps, admin.tenantId, studentId);
  const existing = await deps.logins.findLogin(studentId);
  const username = input.username === undefined ? undefined : normalizeUsername(input.username);
  if (!existing && username === undefined)
    throw new ValidationError('A username is required for a first picture or words', {
      username: 'Username is required',
    });
  const renaming = username !== undefined && username !== existing?.username.toLowerCase();
  if (renaming && (await deps.logins.usernameTaken(admin.tenantId, username))) throw usernameTaken();
  const secretHash = await hashPassword(secretText(input.secret));
  await deps.logins.transaction(async (tx) => {
    if (!existing) {
      await addLogin(deps, tx, {
        userId: studentId,
        tenantId: admin.tenantId,
        username: username!,
        secretKind: input.secret.kind,
        secretHash,
        createdBy: admin.userId,
      });
    } else {
      await deps.logins.setSecret(tx, studentId, input.secret.kind, secretHash);
      if (renaming) {
        try {
          await deps.logins.rename(tx, studentId, username);
        } catch (err) {
          if (err instanceof DuplicateUsernameError) throw usernameTaken();
          throw err;
        }
      }
    }
  });
  return loginView(deps, studentId);
}

/** The teacher sets a new picture or words (the old ones stop working at once). */
export async function resetStudentSecret(
  deps: StudentLoginDeps,
  teacher: Teacher,
  classId: string,
  studentId: string,
  secret: StudentSecret,
): Promise<StudentLoginView> {
  await taughtClass(deps, teacher, classId);
  const login = await deps.logins.findLogin(studentId);
  if (!login || !(await deps.logins.isMember(classId, studentId))) throw new NotFoundError('Student not found');
  const secretHash = await hashPassword(secretText(secret));
  await deps.logins.transaction((tx) => deps.logins.setSecret(tx, studentId, secret.kind, secretHash));
  return loginView(deps, studentId);
}

export interface IssuedCard {
  studentId: string;
  firstName: string;
  lastName: string;
  username: string;
  /** The first-party address the QR holds; its secret is shown once and kept only hashed. */
  url: string;
  expiresAt: string;
}

/** New cards for every student login of the class; the class's earlier cards stop working. */
export async function issueLoginCards(deps: StudentLoginDeps, teacher: Teacher, classId: string) {
  const cls = await taughtClass(deps, teacher, classId);
  if (!cls.active) throw new ConflictError('This class is archived: restore it to print cards.', 'class_archived');
  const now = (deps.now ?? (() => new Date()))();
  const expiresAt = new Date(now.getTime() + deps.cardDays * DAY_MS);
  const students = await deps.logins.listForClass(classId);
  const issued = students.map((s) => ({ student: s, token: randomToken(), id: randomUUID() }));
  await deps.logins.transaction(async (tx) => {
    await deps.logins.revokeCards(tx, classId, now);
    await deps.logins.createCards(
      tx,
      classId,
      teacher.userId,
      issued.map((c) => ({ id: c.id, userId: c.student.userId, secretHash: sha256Hex(c.token), expiresAt })),
    );
  });
  const base = deps.publicUrl.replace(/\/+$/, '');
  return {
    classCode: cls.joinCode,
    cards: issued.map((c): IssuedCard => ({
      studentId: c.student.userId,
      firstName: c.student.firstName,
      lastName: c.student.lastName,
      username: c.student.username,
      // In the fragment: browsers send no fragment to servers, so no log holds the secret.
      url: `${base}/login-card#${c.token}`,
      expiresAt: expiresAt.toISOString(),
    })),
  };
}

export async function revokeLoginCards(deps: StudentLoginDeps, teacher: Teacher, classId: string) {
  await taughtClass(deps, teacher, classId);
  const now = (deps.now ?? (() => new Date()))();
  return { revoked: await deps.logins.transaction((tx) => deps.logins.revokeCards(tx, classId, now)) };
}

async function addressAllowed(deps: StudentLoginDeps, address: string) {
  const limit = await deps.limits.perAddress.consume(address || 'unknown');
  if (!limit.allowed) throw lockedOut(limit.retryAfterSeconds);
}

/** The names a class code's sign-in shows: first name and last initial, student logins only. */
export async function classCodeRoster(deps: StudentLoginDeps, input: { classCode: string; address: string }) {
  await addressAllowed(deps, input.address);
  const cls = await deps.logins.findClassByCode(normalizeClassCode(input.classCode));
  if (!cls) throw new NotFoundError(UNKNOWN_CLASS_CODE);
  const rows = await deps.logins.listForClass(cls.classId);
  return { students: rows.map((r) => ({ id: r.userId, name: shownName(r.firstName, r.lastName) })) };
}

/**
 * A student's picture or words. Every attempt counts against the student and against the class
 * code; a right one is refunded. Past either, the student waits (429) whatever they pick.
 */
export async function signInWithClassCode(
  deps: StudentLoginDeps,
  input: { classCode: string; studentId: string; secret: StudentSecret },
): Promise<UserRecord> {
  const code = normalizeClassCode(input.classCode);
  const cls = await deps.logins.findClassByCode(code);
  if (!cls) throw new NotFoundError(UNKNOWN_CLASS_CODE);
  const perCode = await deps.limits.perClassCode.consume(code);
  if (!perCode.allowed) throw lockedOut(perCode.retryAfterSeconds);
  const perStudent = await deps.limits.perStudent.consume(input.studentId);
  if (!perStudent.allowed) throw lockedOut(perStudent.retryAfterSeconds);
  const login = (await deps.logins.isMember(cls.classId, input.studentId))
    ? await deps.logins.findLogin(input.studentId)
    : undefined;
  const ok = await verifyPassword(login?.secretHash, secretText(input.secret));
  const user = ok ? await deps.logins.findUser(input.studentId) : undefined;
  if (!ok || !user || user.disabledAt) throw new UnauthorizedError(WRONG_SECRET);
  await deps.limits.perClassCode.refund(code);
  await deps.limits.perStudent.refund(input.studentId);
  return user;
}

/** A login card's secret: in force (not revoked, not expired) and its student still in the class. */
export async function signInWithCard(
  deps: StudentLoginDeps,
  input: { token: string; address: string },
): Promise<UserRecord> {
  await addressAllowed(deps, input.address);
  const now = (deps.now ?? (() => new Date()))();
  const card = await deps.logins.findCard(sha256Hex(input.token));
  if (!card || card.revokedAt || card.expiresAt <= now) throw new ForbiddenError(CARD_REFUSED);
  const cls = await deps.logins.findClass(card.classId);
  const user = await deps.logins.findUser(card.userId);
  if (!cls?.active || !user || user.disabledAt || !(await deps.logins.isMember(card.classId, card.userId)))
    throw new ForbiddenError(CARD_REFUSED);
  return user;
}
