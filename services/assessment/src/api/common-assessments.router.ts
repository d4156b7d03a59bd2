// A district's common assessments (/api/common-assessments…): the district admin writes and
// publishes them; the teachers they reach list them and assign them to their classes. The report
// (/api/common-assessments/:id/report) is answered by analytics. Anything not the caller's: 404.
import { ApiRouter, type Caller } from '@checkpoint/service-kit';
import { z } from 'zod';
import { CommonAssessmentNotFoundError, type CommonAssessmentUseCases } from '../domain/common-assessments.use-case.ts';
import { ClassNotFoundError } from '../domain/errors.ts';
import { idParams, teacherAssessmentSchema } from './assessments.schemas.ts';
import {
  assignCommonAssessmentBody,
  commonAssessmentDetailSchema,
  commonAssessmentSchema,
  commonQuestionSchema,
  createCommonAssessmentBody,
  publishCommonAssessmentBody,
  publishTargetsSchema,
  replaceCommonQuestionsBody,
} from './common-assessments.schemas.ts';
import { uuidOr404 } from './ids.ts';

const ADMINS = ['admin'] as const;
const TEACHERS = ['teacher'] as const;
const STAFF = ['teacher', 'admin'] as const;
const idOf = (id: string) => uuidOr404(id, () => new CommonAssessmentNotFoundError());

export function commonAssessmentsRouter(uc: CommonAssessmentUseCases): ApiRouter {
  const who = (caller: Caller) => ({ tenantId: caller.tenantId, userId: caller.userId, role: caller.role });
  return new ApiRouter()
    .add(
      {
        method: 'post',
        path: '/api/common-assessments',
        summary:
          'Write a common assessment for the district (a draft): its questions, each aligned to standards of the catalogue',
        access: ADMINS,
        body: createCommonAssessmentBody,
        status: 201,
        response: commonAssessmentSchema,
      },
      ({ caller, body }) => uc.create(who(caller), body),
    )
    .add(
      {
        method: 'get',
        path: '/api/common-assessments',
        summary:
          "The district admin: the district's common assessments; a teacher: those published to them (reaching one of their classes)",
        access: STAFF,
        response: z.array(commonAssessmentSchema),
      },
      ({ caller }) => uc.list(who(caller)),
    )
    .add(
      {
        method: 'get',
        path: '/api/common-assessments/targets',
        summary:
          "What a publication may name: the schools (id and name), grades and subjects of the district's live classes",
        access: ADMINS,
        response: publishTargetsSchema,
      },
      ({ caller }) => uc.targets(caller),
    )
    .add(
      {
        method: 'get',
        path: '/api/common-assessments/:id',
        summary: 'A common assessment with its questions (the district admin, or a teacher it is published to)',
        access: STAFF,
        params: idParams,
        response: commonAssessmentDetailSchema,
        errors: [404],
      },
      ({ caller, params }) => uc.get(who(caller), idOf(params.id)),
    )
    .add(
      {
        method: 'put',
        path: '/api/common-assessments/:id/questions',
        summary: 'Replace the questions of a draft (409 common_assessment_published once published: they are locked)',
        access: ADMINS,
        params: idParams,
        body: replaceCommonQuestionsBody,
        response: z.array(commonQuestionSchema),
        errors: [404, 409],
      },
      ({ caller, params, body }) => uc.replaceQuestions(who(caller), idOf(params.id), body.questions),
    )
    .add(
      {
        method: 'post',
        path: '/api/common-assessments/:id/publish',
        summary:
          'Publish to the teachers of the chosen schools, grades and subjects (empty: all); publishing again changes who it reaches',
        access: ADMINS,
        params: idParams,
        body: publishCommonAssessmentBody,
        response: commonAssessmentSchema,
        errors: [404],
      },
      ({ caller, params, body }) => uc.publish(who(caller), idOf(params.id), body),
    )
    .add(
      {
        method: 'post',
        path: '/api/common-assessments/:id/assign',
        summary:
          "Assign to one of the caller's classes it reaches: the class gets its copy, assigned at once, questions locked (409 already_assigned)",
        access: TEACHERS,
        params: idParams,
        body: assignCommonAssessmentBody,
        status: 201,
        response: teacherAssessmentSchema,
        errors: [404, 409],
      },
      ({ caller, params, body }) =>
        uc.assign(
          { tenantId: caller.tenantId, teacherId: caller.userId },
          idOf(params.id),
          uuidOr404(body.classId, () => new ClassNotFoundError()),
        ),
    );
}
