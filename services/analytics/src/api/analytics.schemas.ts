// Request and response shapes of the analytics calls (the OpenAPI document is made from these;
// the web's copy is web/src/features/results/resultsApi.ts).
import { z } from 'zod';

export const REPORT_TIMEFRAMES = ['week', 'month', 'quarter', 'year', 'all'] as const;
export const REPORT_TYPES = ['performance', 'detailed', 'standards', 'progress'] as const;

const level = z.enum(['below', 'at', 'above']);
/** One result's level (docs/adr/005): the server's, with the score's own level and what raised it. */
const resultLevel = {
  performanceLevel: level.describe("The result's level: the score's, or at when support practice raised it"),
  originalLevel: level.describe('The level the score gave at submission (equals performanceLevel unless raised)'),
  raisedBy: z.enum(['practice']).nullable().describe('What raised the level since submission, or null'),
  raisedAttempt: z
    .number()
    .int()
    .min(1)
    .nullable()
    .describe('Which practice attempt (1 = the first try) raised the level; null when not raised or not known'),
};
const classIdParam = z.uuid('Not a class id').transform((s) => s.toLowerCase());

export const idParams = z.object({ id: z.string().max(64) }).strict();

export const teacherResultSchema = z
  .object({
    id: z.uuid(),
    studentId: z.uuid(),
    assessmentId: z.uuid(),
    classId: z.uuid(),
    className: z.string(),
    score: z.number().int(),
    percentage: z.number(),
    earnedPoints: z.number(),
    totalPoints: z.number(),
    ...resultLevel,
    attempt: z
      .number()
      .int()
      .min(1)
      .describe("Which of the student's attempts this is: the one that counts (only it is kept here)"),
    submittedAt: z.string(),
    student: z.object({ firstName: z.string(), lastName: z.string() }),
    assessment: z.object({ title: z.string(), topic: z.string(), classId: z.uuid() }),
  })
  .meta({ id: 'TeacherResult' });

export const pageQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(1000).default(1000),
    offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  })
  .strict();

export const gridSchema = z.object({
  classId: z.uuid(),
  className: z.string(),
  students: z.array(z.object({ id: z.uuid(), firstName: z.string(), lastName: z.string() })),
  assessments: z.array(z.object({ id: z.uuid(), title: z.string(), createdAt: z.string() })),
  cells: z.array(
    z.object({
      studentId: z.uuid(),
      assessmentId: z.uuid(),
      resultId: z.uuid(),
      percentage: z.number(),
      ...resultLevel,
    }),
  ),
  /** Attempts started and not yet submitted (a cell without a result shows "In progress"). */
  inProgress: z.array(
    z.object({
      studentId: z.uuid(),
      assessmentId: z.uuid(),
      answered: z.number().int(),
      questionCount: z.number().int(),
    }),
  ),
});

/** Live progress of one assessment: counts only, never an answer, a mark or a score. */
export const attemptProgressSchema = z
  .object({
    assessmentId: z.uuid(),
    classId: z.uuid(),
    questionCount: z.number().int(),
    counts: z.object({
      notStarted: z.number().int(),
      inProgress: z.number().int(),
      submitted: z.number().int(),
    }),
    students: z.array(
      z.object({
        studentId: z.uuid(),
        firstName: z.string(),
        lastName: z.string(),
        status: z.enum(['not_started', 'in_progress', 'submitted']),
        /** Questions with an answer saved (in progress only). */
        answered: z.number().int().nullable(),
        startedAt: z.string().nullable(),
        lastSavedAt: z.string().nullable(),
        submittedAt: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'AttemptProgress' });

export const studentsQuery = z
  .object({
    classId: classIdParam.optional(),
    search: z.string().trim().max(100).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
  })
  .strict();

export const studentsOverviewSchema = z.object({
  stats: z.object({
    totalStudents: z.number().int(),
    aboveStandard: z.number().int(),
    atStandard: z.number().int(),
    belowStandard: z.number().int(),
  }),
  total: z.number().int(),
  students: z.array(
    z.object({
      id: z.uuid(),
      firstName: z.string(),
      lastName: z.string(),
      email: z.string(),
      average: z.number().nullable(),
      band: level
        .nullable()
        .describe(
          'The 80/60 band of the average (80+ above, 60–79 at, below 60 below); not the level of any one result',
        ),
      resultCount: z.number().int(),
      classes: z.array(z.object({ id: z.uuid(), name: z.string(), period: z.string().nullable() })),
      results: z.array(
        z.object({
          resultId: z.uuid(),
          assessmentId: z.uuid(),
          title: z.string(),
          percentage: z.number(),
          ...resultLevel,
          submittedAt: z.string(),
        }),
      ),
    }),
  ),
  classes: z.array(z.object({ id: z.uuid(), name: z.string(), period: z.string().nullable(), subject: z.string() })),
});

const MAX_CLASS_IDS = 200;
const ID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
/**
 * `a,b,…`: up to 200 class ids, blanks around them and empty entries ignored. The pattern and the
 * length (200 ids and their commas) are the whole rule, so the document states it exactly, and
 * the longest valid list stays far below the 16 KB that Node allows a request line.
 */
const classIdList = z
  .string()
  .max(MAX_CLASS_IDS * (36 + 1) - 1, `At most ${MAX_CLASS_IDS} classes`)
  .regex(new RegExp(`^ *(?:${ID} *)?(?:, *(?:${ID} *)?)*$`), 'Class ids must be a comma-separated list of class ids')
  .transform((s) => [
    ...new Set(
      s
        .split(',')
        .map((x) => x.trim().toLowerCase())
        .filter(Boolean),
    ),
  ]);

export const reportQuery = z
  .object({
    classIds: classIdList.optional(),
    timeframe: z.enum(REPORT_TIMEFRAMES).default('month'),
    type: z.enum(REPORT_TYPES).default('performance'),
  })
  .strict();

export const exportQuery = reportQuery.extend({ format: z.enum(['csv', 'pdf']) }).strict();

export const reportSchema = z
  .object({
    generatedAt: z.string(),
    timeframe: z.enum(REPORT_TIMEFRAMES),
    type: z.enum(REPORT_TYPES),
    title: z.string(),
    classes: z.array(z.object({ id: z.uuid(), name: z.string(), period: z.string().nullable() })),
    summary: z.object({
      totalResults: z.number().int(),
      studentsAssessed: z.number().int(),
      assessmentsGiven: z.number().int(),
      averageScore: z.number().nullable().describe('Null without results'),
      aboveStandard: z.number().int(),
      atStandard: z.number().int(),
      belowStandard: z.number().int(),
      abovePercent: z.number().int(),
      atPercent: z.number().int(),
      belowPercent: z.number().int(),
    }),
    levelsOverTime: z.array(
      z.object({ period: z.string(), above: z.number().int(), at: z.number().int(), below: z.number().int() }),
    ),
    columns: z.array(z.object({ key: z.string(), label: z.string() })),
    rows: z.array(z.record(z.string(), z.union([z.string(), z.number(), z.null()]))),
    totalRows: z.number().int(),
    recentResults: z.array(teacherResultSchema),
  })
  .meta({ id: 'Report' });

export const assessmentResultsSchema = z.object({
  assessment: z.object({
    id: z.uuid(),
    title: z.string(),
    topic: z.string(),
    classId: z.uuid(),
    className: z.string(),
    questionCount: z.number().int(),
  }),
  summary: z.object({
    submitted: z.number().int(),
    classSize: z.number().int().describe('Students it is given to, over all its classes'),
    averageScore: z.number().nullable().describe('Null without results'),
    aboveStandard: z.number().int(),
    atStandard: z.number().int(),
    belowStandard: z.number().int(),
  }),
  classes: z
    .array(
      z.object({
        classId: z.uuid(),
        className: z.string(),
        classSize: z.number().int().describe('Students of this class it is given to'),
        submitted: z.number().int(),
        averageScore: z.number().nullable().describe('Null without results'),
      }),
    )
    .describe('Each class it is given to, its own class first, with the results filed under it'),
  results: z.array(
    z.object({
      id: z.uuid(),
      studentId: z.uuid(),
      classId: z.uuid().describe('The class the student took it through'),
      className: z.string(),
      student: z.object({ firstName: z.string(), lastName: z.string() }),
      percentage: z.number(),
      earnedPoints: z.number(),
      totalPoints: z.number(),
      ...resultLevel,
      attempt: z
        .number()
        .int()
        .min(1)
        .describe("Which of the student's attempts this is: the one that counts (only it is kept here)"),
      submittedAt: z.string(),
      practice: z.array(z.object({ type: z.string(), attempts: z.number().int(), bestScore: z.number() })),
      answers: z.array(
        z.object({
          questionId: z.uuid(),
          answer: z.string(),
          correct: z.boolean().describe('Earned its full points'),
          pending: z.boolean().describe("Waiting for the teacher's review (the assessment's reviewShortAnswers)"),
        }),
      ),
    }),
  ),
  questions: z.array(
    z.object({
      id: z.uuid(),
      position: z.number().int(),
      questionText: z.string(),
      questionType: z.enum(['multiple_choice', 'short_answer', 'true_false']),
      options: z.array(z.string()),
      correctAnswer: z.string(),
      points: z.number(),
      answered: z.number().int(),
      correctCount: z.number().int(),
      awaitingReview: z
        .number()
        .int()
        .describe("Answers waiting for the teacher's review: not counted as correct or incorrect until marked"),
      shareCorrect: z
        .number()
        .nullable()
        .describe('correctCount over the results whose answer is marked (awaiting review left out); null when none'),
      discrimination: z.number().nullable(),
      // shownTo: the marked results shown the option (fewer than all: some students had reduced answer choices).
      optionCounts: z.array(
        z.object({ option: z.string(), count: z.number().int(), shownTo: z.number().int(), correct: z.boolean() }),
      ),
    }),
  ),
  distribution: z.array(z.object({ range: z.string(), count: z.number().int() })),
  standards: z
    .array(
      z.object({
        identifier: z.string().describe('The CASE item identifier'),
        code: z.string().describe('The human coding scheme'),
        uri: z.string().describe('The CASE item URI (empty when not known)'),
        questionCount: z.number().int().min(1).describe("This assessment's questions aligned to the standard"),
        students: z.number().int().min(0).describe('Students whose result scored the aligned questions'),
        averagePercentage: z
          .number()
          .min(0)
          .max(100)
          .nullable()
          .describe("Mean of the students' scores on the aligned questions (2 decimals); null without submissions"),
        levels: z
          .object({ below: z.number().int(), at: z.number().int(), above: z.number().int() })
          .describe('Students by the submission bands of their score on the standard: below < 80, at ≥ 80, above ≥ 90'),
      }),
    )
    .describe('The standards the questions are aligned to, by code; empty when none is aligned'),
});

export const adminStatsSchema = z
  .object({
    totalUsers: z.number().int(),
    totalTeachers: z.number().int(),
    totalStudents: z.number().int(),
    totalClasses: z.number().int(),
    totalAssessments: z.number().int(),
    totalResponses: z.number().int(),
    recentSignups: z.array(z.object({ name: z.string(), email: z.string(), role: z.string(), date: z.string() })),
    averageScore: z.number(),
    levels: z.object({ below: z.number().int(), at: z.number().int(), above: z.number().int() }),
  })
  .meta({ id: 'AdminStats' });

export const usageSchema = z.object({
  classes: z.number().int(),
  students: z.number().int(),
  assessments: z.number().int(),
});

/** Classes one live stream may follow: as many as an assessment may be assigned to. */
export const MAX_LIVE_CLASSES = 50;

export const liveQuery = z
  .object({
    classId: z
      .string()
      .max(MAX_LIVE_CLASSES * (36 + 1) - 1, `At most ${MAX_LIVE_CLASSES} classes`)
      .regex(new RegExp(`^${ID}(?:,${ID})*$`), 'Not a class id (or several, separated by commas)')
      .transform((s) => [...new Set(s.split(',').map((x) => x.toLowerCase()))])
      .describe(
        `One class id, or up to ${MAX_LIVE_CLASSES} separated by commas (an assessment given to several classes): one stream for all of them`,
      ),
  })
  .strict();
