// Row-by-row validation of a roster package: every row either becomes a clean record or an error
// (file, line, sourcedId, field, message). Nothing here reads the database; references to rows of
// earlier imports are resolved by plan.ts.
import { isVisibleName, normalizeName } from '@checkpoint/service-kit';
import { normalizeEmail, type UserRole } from '../user.ts';
import { checkpointRole, ONEROSTER_ROLES, type RosterFileName } from './oneroster.ts';
import type { RosterFile, RosterPackage } from './package.ts';
import type { CsvRecord } from './csv.ts';

export interface RowError {
  file: string;
  line: number;
  sourcedId: string | null;
  field: string | null;
  message: string;
}

export type RowStatus = 'active' | 'tobedeleted';

interface Row {
  sourcedId: string;
  line: number;
  status: RowStatus;
}

export interface UserRow extends Row {
  givenName: string;
  familyName: string;
  /** Normalized (lower-case); null: the roster gives none (such a student signs in by SSO only). */
  email: string | null;
  username: string;
  enabled: boolean;
  /** null only for tobedeleted rows. */
  role: UserRole | null;
}

export interface ClassRow extends Row {
  title: string;
  subject: string;
  period: string | null;
  /** classes.csv schoolSourcedId ('' when the file gives none). */
  schoolId: string;
  /** The name of that school in orgs.csv ('' when orgs.csv does not hold it). */
  schoolName: string;
  /** classes.csv grades, in file order. */
  grades: string[];
}

export interface EnrollmentRow extends Row {
  classSourcedId: string;
  userSourcedId: string;
  role: 'student' | 'teacher';
  primary: boolean;
}

export interface FileTally {
  rows: number;
  invalid: number;
}

export interface ValidatedRoster {
  /** delta when any file is delta. */
  mode: 'bulk' | 'delta';
  users: Map<string, UserRow>;
  classes: Map<string, ClassRow>;
  enrollments: EnrollmentRow[];
  /** Whether the file was sent in bulk: the classes' memberships are then exactly its enrollments. */
  enrollmentsBulk: boolean;
  /** Rows that failed, in file order. */
  errors: RowError[];
  /** sourcedIds of rows that were invalid, per file: rows depending on them are skipped too. */
  invalid: { users: Set<string>; classes: Set<string> };
  tally: Partial<Record<RosterFileName, FileTally>>;
}

export const NAME_MAX = 100;
export const EMAIL_MAX = 254;
export const TITLE_MAX = 100;
export const SUBJECT_MAX = 100;
export const PERIOD_MAX = 50;
export const SOURCED_ID_MAX = 255;
export const SCHOOL_NAME_MAX = 200;
export const GRADE_MAX = 20;
export const GRADES_MAX = 20;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

class RowInvalid extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** Validates every row of the package. */
export function validateRoster(pkg: RosterPackage): ValidatedRoster {
  const errors: RowError[] = [];
  const tally: ValidatedRoster['tally'] = {};
  const invalid = { users: new Set<string>(), classes: new Set<string>() };
  const files = pkg.files;

  /** Runs `check` on each row; a RowInvalid it throws becomes the row's error. */
  const eachRow = <T>(
    file: RosterFile | undefined,
    check: (values: Record<string, string>, base: Row) => T | undefined,
    onInvalid?: (sourcedId: string) => void,
  ): T[] => {
    if (!file) return [];
    const out: T[] = [];
    const seen = new Set<string>();
    const t: FileTally = (tally[file.name] = { rows: file.records.length, invalid: 0 });
    for (const record of file.records) {
      // PostgreSQL text cannot hold NUL: such a row is an error (and its sourcedId is shown without it).
      const sourcedId = (record.values.sourcedId ?? '').replaceAll('\u0000', '');
      try {
        for (const [field, value] of Object.entries(record.values))
          if (value.includes('\u0000')) throw new RowInvalid(field, `${field} contains a NUL character`);
        const base = baseRow(file, record);
        if (seen.has(base.sourcedId))
          throw new RowInvalid('sourcedId', `sourcedId ${base.sourcedId} appears more than once in ${file.name}.csv`);
        seen.add(base.sourcedId);
        const value = check(record.values, base);
        if (value !== undefined) out.push(value);
      } catch (err) {
        if (!(err instanceof RowInvalid)) throw err;
        t.invalid++;
        errors.push({
          file: `${file.name}.csv`,
          line: record.line,
          sourcedId: sourcedId || null,
          field: err.field,
          message: err.message,
        });
        if (sourcedId) onInvalid?.(sourcedId);
      }
    }
    return out;
  };

  // courses: only their subject (or title) is used, as a class's subject when the class has none.
  const courseSubjects = new Map<string, string>();
  eachRow(files.courses, (v, base) => {
    const title = required(v, 'title', TITLE_MAX);
    courseSubjects.set(base.sourcedId, firstOfList(v.subjects) || title);
    return base;
  });
  // orgs: the names of the schools (type school), for the classes' schoolSourcedId.
  const schoolNames = new Map<string, string>();
  eachRow(files.orgs, (v, base) => {
    if (base.status === 'tobedeleted' || v.type !== 'school') return base;
    schoolNames.set(base.sourcedId, requiredName(v, 'name', SCHOOL_NAME_MAX));
    return base;
  });
  eachRow(files.academicSessions, (_v, base) => base);

  // roles (OneRoster 1.2): each user's primary role, or the first one listed.
  const roleOf = new Map<string, { role: UserRole; primary: boolean }>();
  const rolesByUser = new Map<string, string>();
  eachRow(files.roles, (v, base) => {
    const userSourcedId = required(v, 'userSourcedId', SOURCED_ID_MAX);
    const roleType = v.roleType ?? '';
    if (roleType !== 'primary' && roleType !== 'secondary')
      throw new RowInvalid('roleType', `roleType must be primary or secondary, not "${shown(roleType)}"`);
    if (base.status === 'tobedeleted') return base;
    const role = mapRole(v.role ?? '', 'role');
    const previous = roleOf.get(userSourcedId);
    if (!previous || (!previous.primary && roleType === 'primary'))
      roleOf.set(userSourcedId, { role, primary: roleType === 'primary' });
    rolesByUser.set(userSourcedId, base.sourcedId);
    return base;
  });

  const users = new Map<string, UserRow>();
  const emails = new Map<string, string>();
  const usersFile = files.users;
  const hasRoleColumn = usersFile?.header.includes('role') ?? false;
  eachRow(
    usersFile,
    (v, base) => {
      const deleting = base.status === 'tobedeleted';
      const givenName = deleting ? (v.givenName ?? '') : requiredName(v, 'givenName', NAME_MAX);
      const familyName = deleting ? (v.familyName ?? '') : requiredName(v, 'familyName', NAME_MAX);
      let email: string | null = null;
      const rawEmail = v.email ?? '';
      if (rawEmail) {
        if (rawEmail.length > EMAIL_MAX) throw new RowInvalid('email', `email must be at most ${EMAIL_MAX} characters`);
        if (!EMAIL.test(rawEmail)) throw new RowInvalid('email', `email "${shown(rawEmail)}" is not an email address`);
        email = normalizeEmail(rawEmail);
        const other = emails.get(email);
        if (other && !deleting)
          throw new RowInvalid('email', `email ${email} is also the email of user ${other} in this file`);
        emails.set(email, base.sourcedId);
      }
      const enabledUser = (v.enabledUser ?? '').toLowerCase();
      if (enabledUser !== '' && enabledUser !== 'true' && enabledUser !== 'false')
        throw new RowInvalid('enabledUser', `enabledUser must be true or false, not "${shown(v.enabledUser)}"`);
      let role: UserRole | null = null;
      if (!deleting) {
        const fromRoles = roleOf.get(base.sourcedId)?.role;
        if (fromRoles) role = fromRoles;
        else if (hasRoleColumn && v.role) role = mapRole(v.role, 'role');
        else
          throw new RowInvalid(
            'role',
            files.roles
              ? `user ${base.sourcedId} has no valid role in roles.csv`
              : 'no role: send roles.csv (OneRoster 1.2) or a role column in users.csv (1.1)',
          );
      }
      const row: UserRow = {
        ...base,
        givenName,
        familyName,
        email,
        username: (v.username ?? '').slice(0, EMAIL_MAX),
        enabled: enabledUser !== 'false',
        role,
      };
      users.set(base.sourcedId, row);
      return row;
    },
    (id) => invalid.users.add(id),
  );
  // A role for a user that is not in users.csv (when users.csv came along) is an error of roles.csv.
  // (The lines are looked up in one map: a search of roles.csv per missing user was quadratic.)
  if (files.roles && usersFile?.mode === 'bulk') {
    const lineOf = new Map<string, number>();
    for (const r of files.roles.records) {
      const id = r.values.sourcedId ?? '';
      if (!lineOf.has(id)) lineOf.set(id, r.line);
    }
    for (const [userSourcedId, roleSourcedId] of rolesByUser) {
      if (users.has(userSourcedId) || invalid.users.has(userSourcedId)) continue;
      errors.push({
        file: 'roles.csv',
        line: lineOf.get(roleSourcedId) ?? 0,
        sourcedId: roleSourcedId,
        field: 'userSourcedId',
        message: `user ${userSourcedId} is not in users.csv`,
      });
      tally.roles!.invalid++;
    }
  }

  const classes = new Map<string, ClassRow>();
  eachRow(
    files.classes,
    (v, base) => {
      const deleting = base.status === 'tobedeleted';
      const title = deleting ? (v.title ?? '') : required(v, 'title', TITLE_MAX);
      const subject = (firstOfList(v.subjects) || courseSubjects.get(v.courseSourcedId ?? '') || title).slice(
        0,
        SUBJECT_MAX,
      );
      const periods = listOf(v.periods).join(', ');
      if (periods.length > PERIOD_MAX)
        throw new RowInvalid('periods', `periods must be at most ${PERIOD_MAX} characters`);
      const schoolId = (v.schoolSourcedId ?? '').trim();
      if (schoolId.length > SOURCED_ID_MAX)
        throw new RowInvalid('schoolSourcedId', `schoolSourcedId must be at most ${SOURCED_ID_MAX} characters`);
      const grades = [...new Set(listOf(v.grades))];
      if (grades.length > GRADES_MAX) throw new RowInvalid('grades', `grades must list at most ${GRADES_MAX} grades`);
      const long = grades.find((g) => g.length > GRADE_MAX);
      if (long !== undefined)
        throw new RowInvalid('grades', `grade "${shown(long)}" must be at most ${GRADE_MAX} characters`);
      const row: ClassRow = {
        ...base,
        title,
        subject,
        period: periods || null,
        schoolId,
        schoolName: schoolNames.get(schoolId) ?? '',
        grades,
      };
      classes.set(base.sourcedId, row);
      return row;
    },
    (id) => invalid.classes.add(id),
  );

  const enrollments = eachRow(files.enrollments, (v, base): EnrollmentRow | undefined => {
    const classSourcedId = required(v, 'classSourcedId', SOURCED_ID_MAX);
    const userSourcedId = required(v, 'userSourcedId', SOURCED_ID_MAX);
    const role = v.role ?? '';
    if (role !== 'student' && role !== 'teacher') {
      if ((ONEROSTER_ROLES as readonly string[]).includes(role))
        throw new RowInvalid('role', `only student and teacher enrollments are imported, not ${role}`);
      throw new RowInvalid('role', `role "${shown(role)}" is not a OneRoster role`);
    }
    const primary = (v.primary ?? '').toLowerCase();
    if (primary !== '' && primary !== 'true' && primary !== 'false')
      throw new RowInvalid('primary', `primary must be true or false, not "${shown(v.primary)}"`);
    if (invalid.users.has(userSourcedId))
      throw new RowInvalid('userSourcedId', `user ${userSourcedId} was skipped (its row in users.csv is invalid)`);
    if (invalid.classes.has(classSourcedId))
      throw new RowInvalid('classSourcedId', `class ${classSourcedId} was skipped (its row in classes.csv is invalid)`);
    return { ...base, classSourcedId, userSourcedId, role, primary: primary === 'true' };
  });

  const mode = Object.values(files).some((f) => f?.mode === 'delta') ? 'delta' : 'bulk';
  return {
    mode,
    users,
    classes,
    enrollments,
    enrollmentsBulk: files.enrollments?.mode === 'bulk',
    errors,
    invalid,
    tally,
  };
}

function baseRow(file: RosterFile, record: CsvRecord): Row {
  const v = record.values;
  const sourcedId = v.sourcedId ?? '';
  if (!sourcedId) throw new RowInvalid('sourcedId', 'sourcedId is required');
  if (sourcedId.length > SOURCED_ID_MAX)
    throw new RowInvalid('sourcedId', `sourcedId must be at most ${SOURCED_ID_MAX} characters`);
  const status = v.status ?? '';
  let rowStatus: RowStatus;
  if (file.mode === 'bulk') {
    // The standard leaves status empty in bulk files; "active" is accepted too.
    if (status !== '' && status !== 'active')
      throw new RowInvalid('status', `status must be empty in a bulk file (it is "${shown(status)}")`);
    rowStatus = 'active';
  } else {
    if (status !== 'active' && status !== 'tobedeleted')
      throw new RowInvalid('status', `status must be active or tobedeleted in a delta file (it is "${shown(status)}")`);
    rowStatus = status;
  }
  const modified = v.dateLastModified ?? '';
  if (file.mode === 'delta' && !modified)
    throw new RowInvalid('dateLastModified', 'dateLastModified is required in a delta file');
  if (modified && (!ISO_DATE_TIME.test(modified) || Number.isNaN(Date.parse(modified))))
    throw new RowInvalid('dateLastModified', `dateLastModified "${shown(modified)}" is not an ISO 8601 date and time`);
  return { sourcedId, line: record.line, status: rowStatus };
}

/** A value as quoted in a message: long ones cut (a message is stored and shown). */
function shown(value: string | undefined): string {
  const v = value ?? '';
  return v.length > 60 ? `${v.slice(0, 60)}…` : v;
}

function required(values: Record<string, string>, field: string, max: number): string {
  const value = values[field] ?? '';
  if (!value) throw new RowInvalid(field, `${field} is required`);
  if (value.length > max) throw new RowInvalid(field, `${field} must be at most ${max} characters`);
  return value;
}

/** A name as every other path stores it (service-kit's nameText): one of only invisible characters is missing. */
function requiredName(values: Record<string, string>, field: string, max: number): string {
  const value = normalizeName(required(values, field, max));
  if (!isVisibleName(value)) throw new RowInvalid(field, `${field} is required (it has no visible character)`);
  return value;
}

function mapRole(value: string, field: string): UserRole {
  const role = checkpointRole(value);
  if (role) return role;
  if ((ONEROSTER_ROLES as readonly string[]).includes(value))
    throw new RowInvalid(field, `${value} accounts are not imported (students and staff only)`);
  throw new RowInvalid(field, `role "${shown(value)}" is not a OneRoster role`);
}

/** OneRoster lists inside one field are comma-separated. */
function listOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

function firstOfList(value: string | undefined): string {
  return listOf(value)[0] ?? '';
}
