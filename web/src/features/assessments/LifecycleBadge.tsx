// Where an assessment is in its life, at a glance: Draft until assigned, Assigned to its
// class while active, Closed once deactivated after that. The Active/Inactive badge stays beside it.
import Badge from 'react-bootstrap/Badge';
import type { Assessment, LifecycleStatus } from './assessmentsApi';

/** The server's status; derived the same way for a reply that has none. */
export function lifecycleOf(a: Pick<Assessment, 'status' | 'isAssigned' | 'isActive'>): LifecycleStatus {
  if (a.status) return a.status;
  if (!a.isAssigned) return 'draft';
  return a.isActive ? 'assigned' : 'closed';
}

/** Each class it is assigned to; one given to chosen students only says how many. */
const classNames = (a: Assessment) =>
  (a.assignedTo?.length
    ? a.assignedTo.map((c) =>
        c.wholeClass || !c.studentIds
          ? c.className
          : `${c.className} (${c.studentIds.length} student${c.studentIds.length === 1 ? '' : 's'})`,
      )
    : a.className
      ? [a.className]
      : []
  ).join(', ');

export function lifecycleLabel(a: Assessment): string {
  const status = lifecycleOf(a);
  if (status === 'draft') return 'Draft';
  if (status === 'closed') return 'Closed';
  const names = classNames(a);
  return names ? `Assigned to ${names}` : 'Assigned';
}

/** One sentence on what students can do now. */
export function lifecycleHint(a: Assessment): string {
  const status = lifecycleOf(a);
  if (status === 'draft') return 'Not assigned yet: students cannot see it until you assign it.';
  if (status === 'closed') return 'Closed: students can no longer start or submit it. Activate it to reopen.';
  if (a.assignedTo?.some((c) => !c.wholeClass)) return 'The students it is assigned to can take it now.';
  return a.assignedTo && a.assignedTo.length > 1
    ? 'Students of these classes can take it now.'
    : 'Students of the class can take it now.';
}

const VARIANTS: Record<LifecycleStatus, string> = { draft: 'secondary', assigned: 'primary', closed: 'dark' };

export function LifecycleBadge({ assessment }: { assessment: Assessment }) {
  const status = lifecycleOf(assessment);
  return (
    <Badge bg={VARIANTS[status]} className="text-wrap text-start" data-testid="lifecycle-status">
      {lifecycleLabel(assessment)}
    </Badge>
  );
}

/**
 * The Active/Inactive badge (the activate toggle's state), for an assessment that has been assigned. A draft shows only
 * "Draft": a new assessment is active, and "Active" beside "Draft" said two things at once.
 */
export function ActivityBadge({ assessment, testId }: { assessment: Assessment; testId?: string }) {
  if (lifecycleOf(assessment) === 'draft') return null;
  return (
    <Badge bg={assessment.isActive ? 'success' : 'secondary'} data-testid={testId}>
      {assessment.isActive ? 'Active' : 'Inactive'}
    </Badge>
  );
}

/** Past its due date (shown, but a due date does not close an assessment by itself). */
export const isPastDue = (a: Pick<Assessment, 'dueDate'>, now = Date.now()) =>
  Boolean(a.dueDate) && Date.parse(a.dueDate!) < now;
