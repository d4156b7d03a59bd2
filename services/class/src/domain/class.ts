// The class as the product sees it and the small rules around names.

/** A person as known from identity's events. */
export interface PersonName {
  firstName: string;
  lastName: string;
}

/** "First Last"; null when the person is not known (yet): the web shows 'Unknown'. */
export function displayName(person: PersonName | undefined): string | null {
  if (!person) return null;
  const name = `${person.firstName} ${person.lastName}`.trim();
  return name === '' ? null : name;
}

export interface ClassDetails {
  name: string;
  subject: string;
  period: string | null;
}

/** The class JSON of every teacher-facing call. */
export interface ClassView {
  id: string;
  name: string;
  subject: string;
  period: string | null;
  joinCode: string;
  createdAt: string;
  teacherId: string;
  teacherName: string | null;
  studentCount: number;
  assessmentCount: number;
  belowStandard: number;
  atStandard: number;
  aboveStandard: number;
  archived: boolean;
  /** The caller co-teaches this class (another teacher owns it). */
  coTeaching: boolean;
}

export interface MemberView {
  id: string;
  joinedAt: string;
  student: {
    id: string;
    firstName: string | null;
    lastName: string | null;
    email: string | null;
    profileImageUrl: string | null;
  };
}

export interface EnrolmentView {
  id: string;
  classId: string;
  joinedAt: string;
  class: { name: string; period: string | null; subject: string; teacherName: string | null };
}

export interface BrowseView {
  id: string;
  name: string;
  period: string | null;
  subject: string;
  teacherId: string;
  teacherName: string | null;
  studentCount: number;
}

export interface JoinResult {
  className: string;
  classId: string;
}

/** Upper bounds on text a teacher types (SECURITY: limits). */
export const LIMITS = { name: 120, subject: 80, period: 40 } as const;
/** Tries at making a code not yet taken before giving up (a collision is ~1 in 1e7 per try). */
export const JOIN_CODE_ATTEMPTS = 5;
