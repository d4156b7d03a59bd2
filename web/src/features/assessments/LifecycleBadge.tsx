// Where an assessment is in its life, at a glance: Draft until assigned, Assigned to its
// class while active, Closed once deactivated after that. The Active/Inactive badge stays beside it.
import Badge from 'react-bootstrap/Badge';
import type { TFunction } from '../../i18n/i18n';
import { useTranslation } from '../../i18n/react';
import type { Assessment, LifecycleStatus } from './assessmentsApi';

/** The server's status; derived the same way for a reply that has none. */
export function lifecycleOf(a: Pick<Assessment, 'status' | 'isAssigned' | 'isActive'>): LifecycleStatus {
  if (a.status) return a.status;
  if (!a.isAssigned) return 'draft';
  return a.isActive ? 'assigned' : 'closed';
}

/** Each class it is assigned to; one given to chosen students only says how many. */
const classNames = (a: Assessment, t: TFunction) =>
  (a.assignedTo?.length
    ? a.assignedTo.map((c) =>
        c.wholeClass || !c.studentIds
          ? c.className
          : t('lifecycle.someStudents', { name: c.className, count: c.studentIds.length }),
      )
    : a.className
      ? [a.className]
      : []
  ).join(', ');

/** Its status in words; `t` is the assessments namespace's. */
export function lifecycleLabel(a: Assessment, t: TFunction): string {
  const status = lifecycleOf(a);
  if (status === 'draft') return t('lifecycle.draft');
  if (status === 'closed') return t('lifecycle.closed');
  const names = classNames(a, t);
  return names ? t('lifecycle.assignedTo', { names }) : t('lifecycle.assigned');
}

/** One sentence on what students can do now; `t` is the assessments namespace's. */
export function lifecycleHint(a: Assessment, t: TFunction): string {
  const status = lifecycleOf(a);
  if (status === 'draft') return t('lifecycle.hintDraft');
  if (status === 'closed') return t('lifecycle.hintClosed');
  if (a.assignedTo?.some((c) => !c.wholeClass)) return t('lifecycle.hintChosen');
  return a.assignedTo && a.assignedTo.length > 1 ? t('lifecycle.hintClasses') : t('lifecycle.hintClass');
}

const VARIANTS: Record<LifecycleStatus, string> = { draft: 'secondary', assigned: 'primary', closed: 'dark' };

export function LifecycleBadge({ assessment }: { assessment: Assessment }) {
  const { t } = useTranslation('assessments');
  const status = lifecycleOf(assessment);
  return (
    <Badge bg={VARIANTS[status]} className="text-wrap text-start" data-testid="lifecycle-status">
      {lifecycleLabel(assessment, t)}
    </Badge>
  );
}

/**
 * The Active/Inactive badge (the activate toggle's state), for an assessment that has been assigned. A draft shows only
 * "Draft": a new assessment is active, and "Active" beside "Draft" said two things at once.
 */
export function ActivityBadge({ assessment, testId }: { assessment: Assessment; testId?: string }) {
  const { t } = useTranslation('assessments');
  if (lifecycleOf(assessment) === 'draft') return null;
  return (
    <Badge bg={assessment.isActive ? 'success' : 'secondary'} data-testid={testId}>
      {assessment.isActive ? t('lifecycle.active') : t('lifecycle.inactive')}
    </Badge>
  );
}

/** Past its due date (shown, but a due date does not close an assessment by itself). */
export const isPastDue = (a: Pick<Assessment, 'dueDate'>, now = Date.now()) =>
  Boolean(a.dueDate) && Date.parse(a.dueDate!) < now;
