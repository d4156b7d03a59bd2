// Mastery of standards over time: a class's heatmap (its teacher, the district admin), a student's
// standards with their trend (the student, their teachers, their district admin), the district's
// standards per class (district admin), and each as CSV.
import { ApiRouter, NotFoundError } from '@checkpoint/service-kit';
import { ADMINS, TEACHERS, uuidOr } from '../domain/access.ts';
import { CLASS_NOT_FOUND } from '../domain/analytics.use-case.ts';
import { STUDENT_NOT_FOUND, type MasteryUseCases } from '../domain/mastery.use-case.ts';
import { idParams } from './analytics.schemas.ts';
import {
  classMasterySchema,
  districtMasterySchema,
  districtQuery,
  studentIdParams,
  studentMasterySchema,
} from './mastery.schemas.ts';
import { sendCsv } from './report-export.ts';

const classId = (id: string) => uuidOr(id, () => new NotFoundError(CLASS_NOT_FOUND));
const studentId = (id: string) => uuidOr(id, () => new NotFoundError(STUDENT_NOT_FOUND));

export function masteryRouter(uc: MasteryUseCases): ApiRouter {
  return new ApiRouter()
    .add(
      {
        method: 'get',
        path: '/api/classes/:id/mastery',
        summary: 'Mastery heatmap of one class: each member’s mastery of each standard assessed in the class',
        access: TEACHERS,
        params: idParams,
        response: classMasterySchema,
        errors: [404],
      },
      ({ caller, params }) => uc.classMastery(caller, classId(params.id)),
    )
    .add(
      {
        method: 'get',
        path: '/api/classes/:id/mastery/export',
        summary: 'The class’s mastery heatmap as CSV (one row per student and standard)',
        access: TEACHERS,
        params: idParams,
        produces: ['text/csv'],
        errors: [404],
      },
      async ({ caller, params, res }) => {
        const { csv } = await uc.classMasteryCsv(caller, classId(params.id));
        sendCsv(res, 'checkpoint-class-mastery.csv', csv);
      },
    )
    .add(
      {
        method: 'get',
        path: '/api/mastery/students/:studentId',
        summary:
          'A student’s mastery of each standard with its trend: the student themself, their teachers (their classes’ evidence), their district admin',
        access: ['student', 'teacher', 'admin'],
        params: studentIdParams,
        response: studentMasterySchema,
        errors: [404],
      },
      ({ caller, params }) => uc.studentMastery(caller, studentId(params.studentId)),
    )
    .add(
      {
        method: 'get',
        path: '/api/mastery/students/:studentId/export',
        summary:
          'A student’s standards as CSV (one row per standard and piece of evidence, so the trend is in the file): the same callers as the JSON',
        access: ['student', 'teacher', 'admin'],
        params: studentIdParams,
        produces: ['text/csv'],
        errors: [404],
      },
      async ({ caller, params, res }) => {
        sendCsv(
          res,
          'checkpoint-student-standards.csv',
          await uc.studentMasteryCsv(caller, studentId(params.studentId)),
        );
      },
    )
    .add(
      {
        method: 'get',
        path: '/api/mastery/district',
        summary:
          'The district’s standards (a page by code, or one standard): each standard’s mastery overall and per class; groups of fewer than 5 students suppressed; X-Total-Count has the number of standards',
        access: ADMINS,
        query: districtQuery,
        response: districtMasterySchema,
      },
      async ({ caller, query, res }) => {
        const { total, standards } = await uc.district(caller, query);
        res.setHeader('X-Total-Count', String(total));
        return standards;
      },
    )
    .add(
      {
        method: 'get',
        path: '/api/mastery/district/export',
        summary: 'The district’s standards view as CSV (suppressed groups without figures)',
        access: ADMINS,
        produces: ['text/csv'],
      },
      async ({ caller, res }) => {
        sendCsv(res, 'checkpoint-district-mastery.csv', await uc.districtCsv(caller));
      },
    );
}
