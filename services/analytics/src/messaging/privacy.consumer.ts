// The analytics service's part in privacy operations (docs/adr/009): export and deletion of a
// student's read-model rows, tenant deletion and retention. Deleting a person first moves the
// running figures (deletePerson), then the generic sweep removes whatever else names them.
import { deleteOlderThan, type AuditedRoute, type PrivacyParticipant } from '@checkpoint/service-kit';
import { forgetEvidence } from '../data-access/mastery.writer.ts';
import { deletePerson, removeResults } from '../data-access/read-model.writer.ts';

export const analyticsPrivacy: PrivacyParticipant = {
  service: 'analytics',
  // The read-model consumer may have deleted the person already (it handles UserDeleted too):
  // deletePerson returns the rows erased for them by either, which the answer reports.
  async beforeEraseUser(tx, userId) {
    return { rows: await deletePerson(tx, userId, new Date()) };
  },
  /** The classes, assessments and questions of the student's memberships and results, by name. */
  async exportContext(tx, userId) {
    const classes = await tx.$queryRawUnsafe<Record<string, unknown>[]>(
      `select c.class_id, c.name, c.subject, c.period,
              nullif(trim(coalesce(t.first_name, '') || ' ' || coalesce(t.last_name, '')), '') as teacher_name
         from classes c left join people t on t.user_id = c.teacher_id
        where c.class_id in (select class_id from memberships where student_id = $1::uuid
                             union select class_id from results where student_id = $1::uuid)
        order by c.name, c.class_id`,
      userId,
    );
    const assessments = await tx.$queryRawUnsafe<Record<string, unknown>[]>(
      `select a.assessment_id, a.class_id, a.title, a.topic
         from assessments a where a.assessment_id in (select assessment_id from results where student_id = $1::uuid)
        order by a.title, a.assessment_id`,
      userId,
    );
    const questions = await tx.$queryRawUnsafe<Record<string, unknown>[]>(
      `select q.assessment_id, q.question_id, q.position, q.question_text, q.question_type, q.correct_answer
         from questions q where q.assessment_id in (select assessment_id from results where student_id = $1::uuid)
        order by q.assessment_id, q.position`,
      userId,
    );
    return { classes, assessments, questions };
  },
  async retention(tx, tenantId, cutoff) {
    const [old] = await tx.$queryRawUnsafe<{ n: number }[]>(
      'select count(*)::int as n from results where tenant_id = $1::uuid and submitted_at < $2::timestamptz',
      tenantId,
      cutoff,
    );
    // Evidence of standards from the same period, through the mastery it fed.
    const evidence = await forgetEvidence(tx, 'tenant_id = $1::uuid and submitted_at < $2::timestamptz', [
      tenantId,
      cutoff,
    ]);
    // Through the figures: the dashboard's running totals stay equal to a recount.
    await removeResults(tx, 'tenant_id = $1::uuid and submitted_at < $2::timestamptz', [tenantId, cutoff]);
    return (
      (old?.n ?? 0) +
      evidence +
      (await deleteOlderThan(tx, 'practice_completions', 'last_completed_at', tenantId, cutoff)) +
      // Attempts left unsubmitted: their counts go with the rest of the period.
      (await deleteOlderThan(tx, 'attempt_progress', 'updated_at', tenantId, cutoff))
    );
  },
};

/** The students a class's results views show: its members and anyone with a result in it. */
const CLASS_STUDENTS = `select student_id::text as id from memberships where class_id = $1::uuid
                        union select student_id::text from results where class_id = $1::uuid`;

/**
 * Teachers' and admins' reads of student results (audited in identity). A read of one class's or
 * one assessment's results is filed under each student shown too, so a search by the student finds
 * it; the reads over query-named classes are filed under the classes.
 */
export const analyticsAuditedRoutes: AuditedRoute[] = [
  { method: 'GET', path: '/api/classes/:id/results', action: 'read', subjectsSql: CLASS_STUDENTS },
  { method: 'GET', path: '/api/classes/:id/grid', action: 'read', subjectsSql: CLASS_STUDENTS },
  { method: 'GET', path: '/api/classes/:id/mastery', action: 'read', subjectsSql: CLASS_STUDENTS },
  { method: 'GET', path: '/api/classes/:id/mastery/export', action: 'export', subjectsSql: CLASS_STUDENTS },
  // The path names the student: the entry's target is them.
  { method: 'GET', path: '/api/mastery/students/:studentId', action: 'read' },
  { method: 'GET', path: '/api/mastery/students/:studentId/export', action: 'export' },
  {
    method: 'GET',
    path: '/api/assessments/:id/results',
    action: 'read',
    subjectsSql: 'select distinct student_id::text as id from results where assessment_id = $1::uuid',
  },
  { method: 'GET', path: '/api/all-results', action: 'read', queryTargets: ['classId', 'assessmentId'] },
  { method: 'GET', path: '/api/dashboard/students', action: 'read', queryTargets: ['classId'] },
  // classIds=a,b (reportQuery): each class of the list is a target (up to 200, all a report takes; none: all the caller's classes).
  { method: 'GET', path: '/api/reports', action: 'read', queryTargets: ['classIds'] },
  { method: 'GET', path: '/api/reports/export', action: 'export', queryTargets: ['classIds'] },
];
