// Response shapes of the mastery calls (docs/architecture.md, "Mastery of standards"); the OpenAPI
// document and the web's generated client are made from these.
import { z } from 'zod';

const level = z.enum(['below', 'at', 'above']).describe('By the submission bands: below < 80, at ≥ 80, above ≥ 90');
const score = z.number().min(0).max(100).describe('Mastery 0–100: the decaying average (w = 0.65) of the evidence');

export const studentIdParams = z.object({ studentId: z.string().max(64) }).strict();

export const districtQuery = z
  .object({
    identifier: z.string().min(1).max(300).optional().describe('One standard (its CASE identifier) instead of a page'),
    limit: z.coerce.number().int().min(1).max(50).default(5).describe('Standards per page (by code)'),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  })
  .strict();

export const classMasterySchema = z
  .array(
    z.object({
      studentId: z.uuid(),
      studentName: z.string(),
      standards: z.array(
        z.object({
          identifier: z.string().describe('The CASE item identifier'),
          code: z.string().describe('The human coding scheme'),
          level,
          evidenceCount: z.number().int().min(1),
          score,
        }),
      ),
    }),
  )
  .meta({ id: 'ClassMastery' });

export const studentMasterySchema = z
  .array(
    z.object({
      identifier: z.string(),
      code: z.string(),
      level,
      score,
      evidenceCount: z.number().int().min(1),
      trend: z
        .array(
          z.object({
            assessmentId: z.uuid(),
            title: z.string(),
            submittedAt: z.string(),
            score: z.number().min(0).max(100).describe("This assessment's score on the standard's aligned questions"),
          }),
        )
        .describe('Each piece of evidence, oldest first'),
    }),
  )
  .meta({ id: 'StudentMastery' });

/** A group's figures, absent when it has fewer than 5 students (suppressed). */
const groupFigures = {
  suppressed: z.boolean().describe('True: fewer than 5 students (or needed to hide such a group); no figures'),
  students: z.number().int().optional(),
  score: z.number().optional().describe('Average mastery of the students'),
  level: level.optional(),
  below: z.number().int().optional(),
  at: z.number().int().optional(),
  above: z.number().int().optional(),
};

export const districtMasterySchema = z
  .array(
    z.object({
      identifier: z.string(),
      code: z.string(),
      ...groupFigures,
      schools: z
        .array(z.object({ schoolId: z.string(), schoolName: z.string(), ...groupFigures }))
        .describe('The classes grouped by school (the roster’s); schoolId empty: classes of no known school'),
      classes: z.array(
        z.object({
          classId: z.uuid(),
          className: z.string(),
          period: z.string().nullable(),
          teacherName: z.string(),
          schoolId: z.string(),
          schoolName: z.string(),
          ...groupFigures,
        }),
      ),
    }),
  )
  .meta({ id: 'DistrictMastery' });
