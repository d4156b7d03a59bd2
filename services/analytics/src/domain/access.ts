// Whose results a caller sees: a teacher their own classes, a district admin every class of their
// tenant. Students reach none of these calls (their own results come from the assessment service).
import type { Caller } from '@checkpoint/service-kit';
import type { Scope } from '../data-access/results.queries.ts';

export const TEACHERS = ['teacher', 'admin'] as const;
export const ADMINS = ['admin'] as const;

export function scopeOf(caller: Caller): Scope {
  return { tenantId: caller.tenantId, teacherId: caller.role === 'admin' ? null : caller.userId };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path id that is not a UUID names nothing: answered like an id that is not the caller's. */
export function uuidOr(id: string, notFound: () => Error): string {
  if (!UUID.test(id)) throw notFound();
  return id.toLowerCase();
}
