// The OneRoster 1.2 CSV binding (1EdTech), the part this product reads: the files, the columns it
// needs from each, the manifest, and how OneRoster roles map to Checkpoint's.
import type { UserRole } from '../user.ts';

/** The files of a package this import reads; any other file of the package is ignored. */
export const ROSTER_FILES = [
  'orgs',
  'academicSessions',
  'courses',
  'classes',
  'users',
  'roles',
  'enrollments',
] as const;
export type RosterFileName = (typeof ROSTER_FILES)[number];

/** How the manifest lists a file: `bulk` (the full set), `delta` (changes since last time) or `absent`. */
export type FileMode = 'bulk' | 'delta' | 'absent';

/**
 * The columns each file must have to be read (the standard's required ones that this product
 * uses); other columns may be present in any order. users.csv of OneRoster 1.1 also carries `role`;
 * 1.2 moved roles to roles.csv.
 */
export const REQUIRED_COLUMNS: Record<RosterFileName, readonly string[]> = {
  orgs: ['sourcedId', 'status', 'dateLastModified', 'name', 'type'],
  academicSessions: ['sourcedId', 'status', 'dateLastModified', 'title', 'type', 'startDate', 'endDate'],
  courses: ['sourcedId', 'status', 'dateLastModified', 'title'],
  classes: ['sourcedId', 'status', 'dateLastModified', 'title', 'courseSourcedId'],
  users: ['sourcedId', 'status', 'dateLastModified', 'enabledUser', 'givenName', 'familyName'],
  roles: ['sourcedId', 'status', 'dateLastModified', 'userSourcedId', 'roleType', 'role'],
  enrollments: ['sourcedId', 'status', 'dateLastModified', 'classSourcedId', 'userSourcedId', 'role'],
};

export const MANIFEST_FILE = 'manifest.csv';

export interface Manifest {
  /** `oneroster.version`: 1.2, or 1.1 (roles in users.csv). */
  version: '1.1' | '1.2';
  files: Partial<Record<RosterFileName, FileMode>>;
}

/**
 * OneRoster roles → Checkpoint roles. Staff roles become teachers: administrator rights are never
 * granted by a file, the district's admin promotes someone explicitly. Guardians, parents and
 * relatives have no place in the product and are reported, not imported.
 */
export function checkpointRole(oneRosterRole: string): UserRole | undefined {
  switch (oneRosterRole) {
    case 'student':
      return 'student';
    case 'teacher':
    case 'aide':
    case 'proctor':
    case 'administrator':
    case 'districtAdministrator':
    case 'principal':
    case 'siteAdministrator':
    case 'systemAdministrator':
      return 'teacher';
    default:
      return undefined;
  }
}

export const ONEROSTER_ROLES = [
  'administrator',
  'aide',
  'guardian',
  'parent',
  'proctor',
  'relative',
  'student',
  'teacher',
  'districtAdministrator',
  'principal',
  'siteAdministrator',
  'systemAdministrator',
] as const;
