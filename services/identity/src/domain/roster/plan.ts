// The plan of an import: what each valid row changes, given what earlier imports did (the
// sourcedId mappings, the classes last sent) and who already holds each email. Rows that cannot
// be applied (an email of another district's account, an enrollment of a skipped user…) become
// errors here too, so that the preview shows everything that will be skipped. A file is held to the
// rules of the district's admin pages (district-admin.use-case.ts): it never disables or changes the
// role of the admin importing it, never makes a student staff, never leaves the district without an
// active admin, and never grants or takes away admin rights.
import { createHash, randomUUID } from 'node:crypto';
import type { UserRole } from '../user.ts';
import type { RosterFileName } from './oneroster.ts';
import type { EnrollmentRow, RowError, UserRow, ValidatedRoster } from './validate.ts';

export interface ExistingUser {
  userId: string;
  tenantId: string;
  email: string;
  firstName: string;
  lastName: string;
  role: UserRole;
  disabled: boolean;
}

export interface SyncedClass {
  title: string;
  subject: string;
  period: string | null;
  teacherUserIds: string[];
  studentUserIds: string[];
  active: boolean;
  /**
   * The class's school (sourcedId and name) and grades. Absent from a state sent before
   * roster_classes kept them (migrations/015): such a state is not compared on them (see sameClass).
   */
  schoolId?: string;
  schoolName?: string;
  grades?: string[];
}

export interface ExistingState {
  tenantId: string;
  /** The district's earlier roster users (roster_users joined with users), by sourcedId. */
  mapped: Map<string, ExistingUser>;
  /** Accounts of any tenant holding an email of the file, by (lower-case) email. */
  byEmail: Map<string, ExistingUser>;
  /** The district's roster classes as last sent to the class service, by sourcedId. */
  classes: Map<string, SyncedClass>;
  /** The district's admins that are not disabled (any account, rostered or not). */
  activeAdminIds: Set<string>;
}

export interface PlannedUser {
  sourceId: string;
  userId: string;
  /** create: new account; link: an account of the district with this email, now mapped; update; disable. */
  action: 'create' | 'link' | 'update' | 'disable';
  email: string;
  firstName: string;
  lastName: string;
  role: UserRole;
  disabled: boolean;
}

export interface PlannedClass extends SyncedClass {
  sourceId: string;
}

export interface RosterPlan {
  users: PlannedUser[];
  classes: PlannedClass[];
}

/**
 * What becomes of each row of a file: every row is counted once, so new + updated + unchanged +
 * deleted + read + invalid = rows. `read` is for the rows of files that only inform the others
 * (roles, courses, orgs, academic sessions). `dropped` (enrollments of a bulk file) counts the
 * memberships that end because the file no longer lists them: they have no row.
 */
export interface FileCounts {
  rows: number;
  new: number;
  updated: number;
  unchanged: number;
  deleted: number;
  read: number;
  invalid: number;
  dropped: number;
}

/** The files whose rows are only read for the others (a role, a course's subject): nothing of their own is imported. */
const READ_ONLY_FILES: RosterFileName[] = ['roles', 'courses', 'orgs', 'academicSessions'];

export type RosterCounts = Partial<Record<RosterFileName, FileCounts>>;

export interface PlanResult {
  plan: RosterPlan;
  counts: RosterCounts;
  errors: RowError[];
}

/**
 * The address of a rostered user without an email: under the reserved `.invalid` domain (RFC 2606),
 * so no mail is ever delivered to it and no one can sign up with it; such a user signs in by SSO.
 */
export function placeholderEmail(tenantId: string, sourcedId: string): string {
  const digest = createHash('sha256').update(`${tenantId}\u0000${sourcedId}`).digest('hex').slice(0, 20);
  return `roster-${digest}@roster.invalid`;
}

/** The emails the plan will look up (those of the file and the placeholders). */
export function emailsOf(roster: ValidatedRoster, tenantId: string): string[] {
  return [...roster.users.values()].map((u) => u.email ?? placeholderEmail(tenantId, u.sourcedId));
}

/** Why a row's change of an existing account is refused: the field of the row, and the reason. */
export interface RowRefusal {
  field: 'enabledUser' | 'status' | 'role';
  message: string;
}

/**
 * A file never grants admin rights nor takes them away (the district's admin promotes and demotes
 * explicitly): an admin keeps the role, and no one else becomes one.
 */
export function roleFromFile(current: UserRole, wanted: UserRole): UserRole {
  if (current === 'admin') return 'admin';
  return wanted === 'admin' ? current : wanted;
}

/**
 * Whether a change of an existing account breaks a rule of the district's admin pages: the caller
 * (the admin importing) is not disabled nor given another role, a student never becomes staff, and
 * the last active admin is neither disabled nor demoted. `activeAdmins`: how many the district has
 * before this change. `disableField`: the field that asks for the disabling (status for a
 * tobedeleted row). Checked when planning, and again under the tenant's lock when applying.
 */
export function refuseChange(
  current: ExistingUser,
  next: { role: UserRole; disabled: boolean },
  context: { callerId?: string; activeAdmins: number; disableField: 'enabledUser' | 'status' },
): RowRefusal | undefined {
  const disabling = next.disabled && !current.disabled;
  const roleChanged = next.role !== current.role;
  const field = disabling ? context.disableField : 'role';
  if (current.userId === context.callerId && (disabling || roleChanged))
    return {
      field,
      message: disabling
        ? `${current.email} is your own account: an import cannot disable it`
        : `${current.email} is your own account: an import cannot change its role`,
    };
  if (current.role === 'student' && next.role !== 'student')
    return {
      field: 'role',
      message: `${current.email} is a student account and cannot become ${next.role}: invite the person with a staff address instead`,
    };
  const losesAdmin = current.role === 'admin' && !current.disabled && (disabling || next.role !== 'admin');
  if (losesAdmin && context.activeAdmins <= 1)
    return {
      field,
      message: `${current.email} is the district's last active admin: an import cannot ${disabling ? 'disable' : 'demote'} it (make someone else an admin first)`,
    };
  return undefined;
}

/**
 * A planned change of an existing account checked again when it is applied, against the account as
 * it is then, under the tenant's lock (an admin may have changed it since the preview): the role to
 * write, or why the row is skipped. `callerId`: the admin applying the import, who may not be the
 * one who previewed it; their own account is never disabled nor given another role either. A
 * disable changes no role: it keeps the account's role as it is now (a student since the preview
 * is disabled as a student, not refused as "a student becoming teacher").
 */
export function recheckPlanned(
  planned: PlannedUser,
  current: ExistingUser,
  activeAdmins: number,
  callerId: string,
): { role: UserRole } | { refused: RowRefusal } {
  const disable = planned.action === 'disable';
  const role = disable ? current.role : roleFromFile(current.role, planned.role);
  const refused = refuseChange(
    current,
    { role, disabled: planned.disabled },
    { callerId, activeAdmins, disableField: disable ? 'status' : 'enabledUser' },
  );
  return refused ? { refused } : { role };
}

/**
 * A user of the plan not applied (its row refused when applying, or a create whose email was taken
 * since the preview): the account's role as it is now, or null when there is no account.
 */
export type SkippedMembers = Map<string, UserRole | null>;

/**
 * A planned class once some users of the plan were skipped when applying: the plan placed them
 * (made a teacher of it, or took them out as disabled) on the premise that their row applies. A
 * skipped user is taken out of the planned lists, and keeps instead the place `before` (the class
 * as last sent to the class service) gave them, if their role as it is now still fits it (a student
 * never stays a teacher, the owner stays first): the class sync is otherwise the planned one.
 */
export function withoutSkipped(cls: PlannedClass, skipped: SkippedMembers, before?: SyncedClass): PlannedClass {
  if (skipped.size === 0) return cls;
  const teacherUserIds = cls.teacherUserIds.filter((id) => !skipped.has(id));
  const studentUserIds = cls.studentUserIds.filter((id) => !skipped.has(id));
  if (cls.active && before?.active) {
    const staff = (id: string) => ['teacher', 'admin'].includes(skipped.get(id) ?? '');
    const restored = before.teacherUserIds.filter(staff);
    if (restored[0] !== undefined && restored[0] === before.teacherUserIds[0]) {
      teacherUserIds.unshift(restored[0]);
      restored.shift();
    }
    teacherUserIds.push(...restored);
    studentUserIds.push(...before.studentUserIds.filter((id) => skipped.get(id) === 'student'));
  }
  return { ...cls, teacherUserIds, studentUserIds };
}

/**
 * Why a row's address cannot be used. An account of this district may be named; of any other
 * account nothing is said, not even that one exists elsewhere (another tenant's people are not this
 * admin's to learn about).
 */
function unusable(email: string, ofThisDistrict: boolean): string {
  return ofThisDistrict
    ? `email ${email} belongs to another account of this district`
    : `email ${email} cannot be used for this person; give them another address`;
}

export function planRoster(roster: ValidatedRoster, state: ExistingState, callerId?: string): PlanResult {
  const errors: RowError[] = [...roster.errors];
  const counts: RosterCounts = {};
  for (const [file, t] of Object.entries(roster.tally)) {
    const readOnly = READ_ONLY_FILES.includes(file as RosterFileName);
    counts[file as RosterFileName] = {
      rows: t.rows,
      new: 0,
      updated: 0,
      unchanged: 0,
      deleted: 0,
      read: readOnly ? t.rows - t.invalid : 0,
      invalid: t.invalid,
      dropped: 0,
    };
  }
  const fail = (file: RosterFileName, row: { line: number; sourcedId: string }, field: string, message: string) => {
    errors.push({ file: `${file}.csv`, line: row.line, sourcedId: row.sourcedId, field, message });
    const c = counts[file];
    if (c) c.invalid++;
  };
  const count = (file: RosterFileName, key: 'new' | 'updated' | 'unchanged' | 'deleted' | 'dropped', n = 1) => {
    const c = counts[file];
    if (c) c[key] += n;
  };

  // Users.
  const users: PlannedUser[] = [];
  /** sourcedId → the account and role the enrollments may use. */
  const resolved = new Map<string, { userId: string; role: UserRole; deleting: boolean }>();
  const failedUsers = new Set(roster.invalid.users);
  const mappedIds = new Set([...state.mapped.values()].map((u) => u.userId));
  // The district's active admins once the rows planned so far are applied.
  const activeAdmins = new Set(state.activeAdminIds);
  /** A user row changing an existing account: refused (an error row, skipped) or counted in. */
  const refused = (
    row: UserRow,
    current: ExistingUser,
    next: { role: UserRole; disabled: boolean },
    disableField: 'enabledUser' | 'status',
  ): boolean => {
    const refusal = refuseChange(current, next, { callerId, activeAdmins: activeAdmins.size, disableField });
    if (refusal) {
      failedUsers.add(row.sourcedId);
      fail('users', row, refusal.field, refusal.message);
      return true;
    }
    if (next.role === 'admin' && !next.disabled) activeAdmins.add(current.userId);
    else activeAdmins.delete(current.userId);
    return false;
  };
  for (const row of roster.users.values()) {
    const existing = state.mapped.get(row.sourcedId);
    if (row.status === 'tobedeleted') {
      if (existing && !existing.disabled) {
        if (refused(row, existing, { role: existing.role, disabled: true }, 'status')) continue;
        users.push({ ...fromExisting(row.sourcedId, existing), action: 'disable', disabled: true });
        count('users', 'deleted');
      } else count('users', 'unchanged');
      if (existing) resolved.set(row.sourcedId, { userId: existing.userId, role: existing.role, deleting: true });
      continue;
    }
    // A row without an email keeps the address an earlier import (or the person) gave the account.
    const email = row.email ?? existing?.email ?? placeholderEmail(state.tenantId, row.sourcedId);
    const holder = existing && !row.email ? undefined : state.byEmail.get(email);
    const role = row.role!;
    if (existing) {
      if (holder && holder.userId !== existing.userId) {
        failedUsers.add(row.sourcedId);
        fail('users', row, 'email', unusable(email, holder.tenantId === state.tenantId));
        continue;
      }
      const next = desired(row, roleFromFile(existing.role, role), email);
      if (sameUser(existing, next)) count('users', 'unchanged');
      else {
        if (refused(row, existing, next, 'enabledUser')) continue;
        users.push({ sourceId: row.sourcedId, userId: existing.userId, action: 'update', ...next });
        count('users', 'updated');
      }
      resolved.set(row.sourcedId, { userId: existing.userId, role: next.role, deleting: false });
      continue;
    }
    if (holder) {
      if (holder.tenantId !== state.tenantId) {
        failedUsers.add(row.sourcedId);
        fail('users', row, 'email', unusable(email, false));
        continue;
      }
      if (mappedIds.has(holder.userId)) {
        failedUsers.add(row.sourcedId);
        fail('users', row, 'email', `email ${email} belongs to another roster user of this district`);
        continue;
      }
      const next = desired(row, roleFromFile(holder.role, role), email);
      if (refused(row, holder, next, 'enabledUser')) continue;
      users.push({ sourceId: row.sourcedId, userId: holder.userId, action: 'link', ...next });
      count('users', sameUser(holder, next) ? 'unchanged' : 'updated');
      resolved.set(row.sourcedId, { userId: holder.userId, role: next.role, deleting: false });
      continue;
    }
    const userId = randomUUID();
    users.push({ sourceId: row.sourcedId, userId, action: 'create', ...desired(row, role, email) });
    count('users', 'new');
    resolved.set(row.sourcedId, { userId, role, deleting: false });
  }
  for (const [sourceId, u] of state.mapped) {
    if (!resolved.has(sourceId) && !failedUsers.has(sourceId))
      resolved.set(sourceId, { userId: u.userId, role: u.role, deleting: u.disabled });
  }

  // Enrollments, grouped by class.
  const byClass = new Map<string, EnrollmentRow[]>();
  for (const e of roster.enrollments) {
    const user = resolved.get(e.userSourcedId);
    if (!user) {
      fail(
        'enrollments',
        e,
        'userSourcedId',
        failedUsers.has(e.userSourcedId)
          ? `user ${e.userSourcedId} was skipped (see its row in users.csv)`
          : `user ${e.userSourcedId} is not in users.csv nor in an earlier import`,
      );
      continue;
    }
    if (e.status === 'active') {
      if (user.deleting) {
        fail('enrollments', e, 'userSourcedId', `user ${e.userSourcedId} is removed from the roster`);
        continue;
      }
      const asTeacher = user.role === 'teacher' || user.role === 'admin';
      if ((e.role === 'teacher') !== asTeacher) {
        fail('enrollments', e, 'role', `user ${e.userSourcedId} is a ${user.role}, enrolled as ${e.role}`);
        continue;
      }
    }
    const list = byClass.get(e.classSourcedId) ?? [];
    list.push(e);
    byClass.set(e.classSourcedId, list);
  }

  // Disabled users leave their classes.
  const gone = new Set([...resolved.values()].filter((u) => u.deleting).map((u) => u.userId));

  // Classes: the file's rows, and the earlier classes whose enrollments changed.
  const classes: PlannedClass[] = [];
  const classIds = new Set([...roster.classes.keys(), ...byClass.keys()]);
  for (const sourceId of classIds) {
    const row = roster.classes.get(sourceId);
    const before = state.classes.get(sourceId);
    const enrollments = byClass.get(sourceId) ?? [];
    if (!row && !before) {
      for (const e of enrollments)
        fail(
          'enrollments',
          e,
          'classSourcedId',
          roster.invalid.classes.has(sourceId)
            ? `class ${sourceId} was skipped (see its row in classes.csv)`
            : `class ${sourceId} is not in classes.csv nor in an earlier import`,
        );
      continue;
    }
    if (row?.status === 'tobedeleted') {
      if (before?.active) {
        classes.push({ ...before, sourceId, active: false });
        count('classes', 'deleted');
      } else count('classes', 'unchanged');
      // Its enrollment rows: the memberships end with the class.
      const members = new Set(before?.active ? [...before.teacherUserIds, ...before.studentUserIds] : []);
      for (const e of enrollments)
        count('enrollments', members.has(resolved.get(e.userSourcedId)!.userId) ? 'deleted' : 'unchanged');
      continue;
    }
    // Members: exactly the file's enrollments when it is bulk; the earlier ones changed by a delta.
    // Each list is an insertion-ordered Set (membership and removal in O(1): a class of many
    // enrollments, or one enrollment repeated, was quadratic with arrays), owners kept apart so
    // that the last primary teacher seen comes first, as an unshift onto an array did.
    const teachers = new Set<string>();
    const students = new Set<string>();
    const owners = new Map<string, number>(); // primary teacher added by this file → when
    let seen = 0;
    if (!roster.enrollmentsBulk && before) {
      for (const id of before.teacherUserIds) teachers.add(id);
      for (const id of before.studentUserIds) students.add(id);
    }
    // Primary teachers first: the first one owns the class.
    const ordered = [...enrollments].sort((a, b) => Number(b.primary) - Number(a.primary));
    for (const e of ordered) {
      const userId = resolved.get(e.userSourcedId)!.userId;
      const list = e.role === 'teacher' ? teachers : students;
      if (e.status === 'tobedeleted') {
        list.delete(userId);
        if (list === teachers) owners.delete(userId);
      } else if (!list.has(userId)) {
        list.add(userId);
        if (e.role === 'teacher' && e.primary) owners.set(userId, seen++);
      }
    }
    const ownersFirst = [...owners.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
    for (const id of teachers) if (!owners.has(id)) ownersFirst.push(id);
    const keep = (ids: string[]) => ids.filter((id) => !gone.has(id));
    const next: PlannedClass = {
      sourceId,
      title: row?.title ?? before!.title,
      subject: row?.subject ?? before!.subject,
      period: row ? row.period : before!.period,
      ...(row
        ? { schoolId: row.schoolId, schoolName: row.schoolName, grades: row.grades }
        : before!.schoolId !== undefined
          ? { schoolId: before!.schoolId, schoolName: before!.schoolName ?? '', grades: before!.grades ?? [] }
          : {}),
      teacherUserIds: keep(ownersFirst),
      studentUserIds: keep([...students]),
      active: true,
    };
    if (next.teacherUserIds.length === 0) {
      const message = `class ${sourceId} has no teacher enrollment`;
      if (row) fail('classes', row, 'sourcedId', message);
      for (const e of enrollments)
        fail('enrollments', e, 'classSourcedId', `class ${sourceId} was skipped (it has no teacher)`);
      continue;
    }
    // Enrollment counts, one per row: a membership the row adds (new), ends (deleted) or leaves
    // as it was (unchanged); apart, the memberships that end without a row (a bulk file, or a
    // member leaving with their account).
    const pairs = (c: Pick<SyncedClass, 'teacherUserIds' | 'studentUserIds'> | undefined) =>
      new Set(c ? [...c.teacherUserIds.map((t) => `t:${t}`), ...c.studentUserIds.map((s) => `s:${s}`)] : []);
    const was = pairs(before?.active ? before : undefined);
    const now = pairs(next);
    const named = new Set<string>();
    for (const e of enrollments) {
      const pair = `${e.role === 'teacher' ? 't' : 's'}:${resolved.get(e.userSourcedId)!.userId}`;
      named.add(pair);
      if (e.status === 'tobedeleted') count('enrollments', was.has(pair) && !now.has(pair) ? 'deleted' : 'unchanged');
      else if (!now.has(pair)) count('enrollments', was.has(pair) ? 'deleted' : 'unchanged');
      else count('enrollments', was.has(pair) ? 'unchanged' : 'new');
    }
    count('enrollments', 'dropped', [...was].filter((p) => !now.has(p) && !named.has(p)).length);

    if (!before) {
      count('classes', 'new');
      classes.push(next);
    } else if (sameClass(before, next)) {
      if (row) count('classes', 'unchanged');
    } else {
      if (row) count('classes', 'updated');
      classes.push(next);
    }
  }
  return { plan: { users, classes }, counts, errors };
}

function desired(row: UserRow, role: UserRole, email: string) {
  return { email, firstName: row.givenName, lastName: row.familyName, role, disabled: !row.enabled };
}

function fromExisting(sourceId: string, u: ExistingUser) {
  return {
    sourceId,
    userId: u.userId,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    role: u.role,
  };
}

function sameUser(a: ExistingUser, b: ReturnType<typeof desired>): boolean {
  return (
    a.email === b.email &&
    a.firstName === b.firstName &&
    a.lastName === b.lastName &&
    a.role === b.role &&
    a.disabled === b.disabled
  );
}

function sameClass(a: SyncedClass, b: SyncedClass): boolean {
  const same = (x: string[], y: string[]) => x.length === y.length && x.every((v, i) => v === y[i]);
  return (
    a.title === b.title &&
    a.subject === b.subject &&
    a.period === b.period &&
    a.active === b.active &&
    // A state sent before school and grades were kept is not compared on them.
    (a.schoolId === undefined ||
      b.schoolId === undefined ||
      (a.schoolId === b.schoolId && a.schoolName === b.schoolName && same(a.grades ?? [], b.grades ?? []))) &&
    same(a.teacherUserIds, b.teacherUserIds) &&
    same([...a.studentUserIds].sort(), [...b.studentUserIds].sort())
  );
}
