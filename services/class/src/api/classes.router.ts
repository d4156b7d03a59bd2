// Teacher calls on the classes they teach (own or co-teach). Another teacher's class answers 404;
// what only the owner may do (delete, add or remove co-teachers) answers a co-teacher 403.
import { ApiRouter, type Caller } from '@checkpoint/service-kit';
import { z } from 'zod';
import type { ClassUseCases } from '../domain/classes.use-case.ts';
import { StudentNotInClassError, TeacherNotInClassError } from '../domain/errors.ts';
import {
  addTeacherBody,
  classSchema,
  classTeacherSchema,
  createClassBody,
  idParams,
  memberParams,
  memberSchema,
  teacherParams,
  updateClassBody,
} from './classes.schemas.ts';
import { uuidOr404 } from './ids.ts';

const TEACHERS = ['teacher', 'admin'] as const;
const owner = (caller: Caller) => ({ tenantId: caller.tenantId, teacherId: caller.userId });

export function classesRouter(classes: ClassUseCases): ApiRouter {
  return new ApiRouter()
    .add(
      {
        method: 'get',
        path: '/api/classes',
        summary: "The caller's active classes",
        access: TEACHERS,
        response: z.array(classSchema),
      },
      ({ caller }) => classes.listClasses(owner(caller), false),
    )
    .add(
      {
        method: 'get',
        path: '/api/classes/archived',
        summary: "The caller's archived classes",
        access: TEACHERS,
        response: z.array(classSchema),
      },
      ({ caller }) => classes.listClasses(owner(caller), true),
    )
    .add(
      {
        method: 'post',
        path: '/api/classes',
        summary: 'Create a class (a join code is made for it)',
        access: TEACHERS,
        body: createClassBody,
        status: 201,
        response: classSchema,
      },
      ({ caller, body }) => classes.createClass(owner(caller), body),
    )
    .add(
      {
        method: 'get',
        path: '/api/classes/:id',
        summary: 'One of the caller’s classes',
        access: TEACHERS,
        params: idParams,
        response: classSchema,
        errors: [404],
      },
      ({ caller, params }) => classes.getClass(owner(caller), uuidOr404(params.id)),
    )
    .add(
      {
        method: 'put',
        path: '/api/classes/:id',
        summary: 'Change name, subject and period',
        access: TEACHERS,
        params: idParams,
        body: updateClassBody,
        response: classSchema,
        errors: [404],
      },
      ({ caller, params, body }) => classes.updateClass(owner(caller), uuidOr404(params.id), body),
    )
    .add(
      {
        method: 'delete',
        path: '/api/classes/:id',
        summary: 'Delete a class with its memberships (permanent; its owner only)',
        access: TEACHERS,
        params: idParams,
        errors: [403, 404],
      },
      ({ caller, params }) => classes.deleteClass(owner(caller), uuidOr404(params.id)),
    )
    .add(
      {
        method: 'put',
        path: '/api/classes/:id/archive',
        summary: 'Archive a class (hidden from the main list, data kept)',
        access: TEACHERS,
        params: idParams,
        response: classSchema,
        errors: [404],
      },
      ({ caller, params }) => classes.archiveClass(owner(caller), uuidOr404(params.id)),
    )
    .add(
      {
        method: 'put',
        path: '/api/classes/:id/restore',
        summary: 'Restore an archived class',
        access: TEACHERS,
        params: idParams,
        response: classSchema,
        errors: [404],
      },
      ({ caller, params }) => classes.restoreClass(owner(caller), uuidOr404(params.id)),
    )
    .add(
      {
        method: 'get',
        path: '/api/classes/:id/students',
        summary: 'Members of a class, oldest first',
        access: TEACHERS,
        params: idParams,
        response: z.array(memberSchema),
        errors: [404],
      },
      ({ caller, params }) => classes.listStudents(owner(caller), uuidOr404(params.id)),
    )
    .add(
      {
        method: 'delete',
        path: '/api/classes/:id/students/:studentId',
        summary: 'Remove a student from a class',
        access: TEACHERS,
        params: memberParams,
        errors: [404],
      },
      ({ caller, params }) =>
        classes.removeStudent(
          owner(caller),
          uuidOr404(params.id),
          uuidOr404(params.studentId, () => new StudentNotInClassError()),
        ),
    )
    .add(
      {
        method: 'get',
        path: '/api/classes/:id/teachers',
        summary: "The class's teachers: its owner first, then its co-teachers",
        access: TEACHERS,
        params: idParams,
        response: z.array(classTeacherSchema),
        errors: [404],
      },
      ({ caller, params }) => classes.listTeachers(owner(caller), uuidOr404(params.id)),
    )
    .add(
      {
        method: 'post',
        path: '/api/classes/:id/teachers',
        summary:
          'Add a co-teacher by email (the owner only): a teacher of the same school or district, or for an individual account another individual account; a school or district invites an address without a teacher account (status pending)',
        access: TEACHERS,
        params: idParams,
        body: addTeacherBody,
        status: 201,
        response: classTeacherSchema,
        errors: [403, 404, 409],
      },
      ({ caller, params, body }) => classes.addCoTeacher(owner(caller), uuidOr404(params.id), body.email),
    )
    .add(
      {
        method: 'delete',
        path: '/api/classes/:id/teachers/:teacherId',
        summary:
          'Remove a co-teacher or withdraw an invitation (the owner), or leave a class one co-teaches (themself)',
        access: TEACHERS,
        params: teacherParams,
        errors: [403, 404],
      },
      ({ caller, params }) =>
        classes.removeCoTeacher(
          owner(caller),
          uuidOr404(params.id),
          uuidOr404(params.teacherId, () => new TeacherNotInClassError()),
        ),
    );
}
