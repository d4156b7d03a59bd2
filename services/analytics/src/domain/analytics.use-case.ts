// What each analytics call answers, from the read models: the screens' shapes, the 80/60 bands of
// averages, the reports' limits. A class or assessment outside the caller's scope answers 404, as if it did not exist.
import { lookupNow, NotFoundError, type AwaitRecent } from '@checkpoint/service-kit';
import type { ResultsQueries, Scope, TeacherResultRow } from '../data-access/results.queries.ts';
import {
  AVERAGE_BAND_TEXT,
  distribution,
  groupBy,
  itemStatistics,
  LEVEL_TEXT,
  mean,
  reportBand,
  resultLevelText,
  round2,
  studentBand,
  summaryPercent,
  tryText,
  type ItemResult,
} from './figures.ts';

import { masteryLevel } from './mastery.ts';

export type { Scope } from '../data-access/results.queries.ts';

export const CLASS_NOT_FOUND = 'Class not found';
export const ASSESSMENT_NOT_FOUND = 'Assessment not found';

/**
 * Rows of a report: as JSON, as CSV, and as PDF (drawing a page takes the event loop for a while,
 * so a PDF is kept to what can be printed and read; the CSV holds the rest).
 */
export const REPORT_ROW_LIMIT = 1000;
export const EXPORT_ROW_LIMITS = { csv: 100_000, pdf: 2_000 } as const;
/** Reports show the first 10 results. */
export const RECENT_RESULTS = 10;

export type Timeframe = 'week' | 'month' | 'quarter' | 'year' | 'all';
export type ReportType = 'performance' | 'detailed' | 'standards' | 'progress';

export interface ReportRequest {
  classIds?: string[];
  timeframe: Timeframe;
  type: ReportType;
}

const DAY = 86_400_000;
const TIMEFRAME_DAYS: Record<Timeframe, number | null> = { week: 7, month: 30, quarter: 91, year: 365, all: null };
const TIMEFRAME_TEXT: Record<Timeframe, string> = {
  week: 'last 7 days',
  month: 'last 30 days',
  quarter: 'last 3 months',
  year: 'last 12 months',
  all: 'all time',
};
const TYPE_TEXT: Record<ReportType, string> = {
  performance: 'Performance Report',
  detailed: 'Detailed Results Report',
  standards: 'Standards Report',
  progress: 'Student Progress Report',
};
/** The period of one bar of "levels over time": about 4 to 13 bars per timeframe. */
const TIMEFRAME_STEP: Record<Timeframe, 'day' | 'week' | 'month'> = {
  week: 'day',
  month: 'week',
  quarter: 'week',
  year: 'month',
  all: 'month',
};

const fullName = (first: string, last: string) => `${first} ${last}`.trim();

export function toTeacherResult(r: TeacherResultRow) {
  return {
    id: r.id,
    studentId: r.studentId,
    assessmentId: r.assessmentId,
    classId: r.classId,
    className: r.className,
    score: Math.round(r.percentage),
    percentage: round2(r.percentage),
    earnedPoints: r.earnedPoints,
    totalPoints: r.totalPoints,
    performanceLevel: r.level,
    originalLevel: r.originalLevel,
    raisedBy: r.raisedBy,
    raisedAttempt: r.raisedAttempt,
    attempt: r.attempt,
    submittedAt: r.submittedAt.toISOString(),
    student: { firstName: r.firstName, lastName: r.lastName },
    assessment: { title: r.title, topic: r.topic, classId: r.classId },
  };
}

/**
 * `awaitRecent`: a class or assessment created a moment ago may not have reached the read models
 * yet; the calls about one of them wait for it, boundedly (reports over several answer at once).
 */
export function analyticsUseCases(
  q: ResultsQueries,
  clock: () => Date = () => new Date(),
  awaitRecent: AwaitRecent = lookupNow,
) {
  async function requireClass(scope: Scope, classId: string, wait: AwaitRecent = awaitRecent) {
    const found = await wait(classId, () => q.classInScope(scope, classId));
    if (!found) throw new NotFoundError(CLASS_NOT_FOUND);
    return found;
  }

  /** The caller's classes among `ids` (all of them when none given); a foreign id answers 404. */
  async function classesFor(scope: Scope, ids: string[] | undefined) {
    const mine = await q.classesInScope(scope);
    if (!ids || ids.length === 0) return { ids: undefined, classes: mine };
    const byId = new Map(mine.map((c) => [c.id, c]));
    // An archived class of the caller's is not in the list but may still be reported on.
    const chosen = [];
    for (const id of ids) {
      const c = byId.get(id) ?? (await requireClass(scope, id, lookupNow));
      chosen.push({ id: c.id, name: c.name, period: c.period, subject: c.subject });
    }
    return { ids, classes: chosen };
  }

  async function report(scope: Scope, request: ReportRequest, rowLimit: number) {
    const { ids, classes } = await classesFor(scope, request.classIds);
    const days = TIMEFRAME_DAYS[request.timeframe];
    const since = days === null ? undefined : new Date(clock().getTime() - days * DAY);
    const figures = await q.reportFigures(scope, { classIds: ids, since });
    const [s, overTime, recent] = await Promise.all([
      figures.summary(),
      figures.overTime(TIMEFRAME_STEP[request.timeframe]),
      q.scopeResults(scope, {
        classIds: ids,
        since,
        limit: request.type === 'detailed' ? rowLimit : RECENT_RESULTS,
        offset: 0,
      }),
    ]);
    const bands = (b: { results: number; average: number; above: number; at: number; below: number }) => ({
      results: b.results,
      average: Math.round(b.average),
      above: b.above,
      at: b.at,
      below: b.below,
    });
    let table: {
      columns: { key: string; label: string }[];
      rows: Record<string, string | number | null>[];
      total: number;
    };
    const bandColumns = [
      { key: 'results', label: 'Results' },
      { key: 'average', label: 'Average %' },
      { key: 'above', label: 'Above Standard' },
      { key: 'at', label: 'At Standard' },
      { key: 'below', label: 'Below Standard' },
    ];
    switch (request.type) {
      case 'performance': {
        const rows = (await figures.byAssessment()).map((r) => ({
          assessment: r.title,
          class: r.period ? `${r.className} - Period ${r.period}` : r.className,
          ...bands(r),
        }));
        table = {
          columns: [{ key: 'assessment', label: 'Assessment' }, { key: 'class', label: 'Class' }, ...bandColumns],
          rows: rows.slice(0, rowLimit),
          total: rows.length,
        };
        break;
      }
      case 'standards': {
        const rows = (await figures.byStandard()).map((r) => ({
          standard: r.standard.length > 120 ? `${r.standard.slice(0, 117)}...` : r.standard,
          assessments: r.assessments,
          ...bands(r),
        }));
        table = {
          columns: [
            { key: 'standard', label: 'Standard / Topic' },
            { key: 'assessments', label: 'Assessments' },
            ...bandColumns,
          ],
          rows: rows.slice(0, rowLimit),
          total: rows.length,
        };
        break;
      }
      case 'progress': {
        const rows = (await figures.byStudent(rowLimit)).map((r) => ({
          student: fullName(r.firstName, r.lastName),
          email: r.email,
          results: r.results,
          first: Math.round(r.first),
          latest: Math.round(r.latest),
          latestLevel: resultLevelText(r.latestLevel, r.latestRaisedBy, r.latestRaisedAttempt),
          change: Math.round(r.latest) - Math.round(r.first),
          average: Math.round(r.average),
          // The 80/60 band of the average, worded as such: not a result's level (docs/adr/005).
          band: AVERAGE_BAND_TEXT[reportBand(r.average)],
        }));
        table = {
          columns: [
            { key: 'student', label: 'Student' },
            { key: 'email', label: 'Email' },
            { key: 'results', label: 'Results' },
            { key: 'first', label: 'First %' },
            { key: 'latest', label: 'Latest %' },
            { key: 'latestLevel', label: 'Latest Level' },
            { key: 'change', label: 'Change' },
            { key: 'average', label: 'Average %' },
            { key: 'band', label: 'Average Band (80/60)' },
          ],
          rows,
          total: s.students,
        };
        break;
      }
      case 'detailed': {
        table = {
          columns: [
            { key: 'student', label: 'Student' },
            { key: 'email', label: 'Email' },
            { key: 'assessment', label: 'Assessment' },
            { key: 'class', label: 'Class' },
            { key: 'score', label: 'Score %' },
            { key: 'level', label: 'Performance Level' },
            { key: 'originalLevel', label: 'Level at Submission' },
            { key: 'raisedBy', label: 'Raised By' },
            { key: 'submittedAt', label: 'Submitted' },
          ],
          rows: recent.rows.map((r) => ({
            student: fullName(r.firstName, r.lastName),
            email: r.email,
            assessment: r.title,
            class: r.className,
            score: Math.round(r.percentage),
            level: LEVEL_TEXT[r.level],
            originalLevel: LEVEL_TEXT[r.originalLevel],
            raisedBy: r.raisedBy === 'practice' ? `Support practice${tryText(r.raisedAttempt)}` : '',
            submittedAt: r.submittedAt.toISOString(),
          })),
          total: recent.total,
        };
        break;
      }
    }
    return {
      generatedAt: clock().toISOString(),
      timeframe: request.timeframe,
      type: request.type,
      title: `${TYPE_TEXT[request.type]}, ${TIMEFRAME_TEXT[request.timeframe]}`,
      classes: classes.map(({ id, name, period }) => ({ id, name, period })),
      summary: {
        totalResults: s.results,
        studentsAssessed: s.students,
        assessmentsGiven: s.assessments,
        // No results, no average: null, never a 0 % nobody scored.
        averageScore: s.results > 0 ? Math.round(s.average) : null,
        aboveStandard: s.above,
        atStandard: s.at,
        belowStandard: s.below,
        abovePercent: summaryPercent(s.above, s.results),
        atPercent: summaryPercent(s.at, s.results),
        belowPercent: summaryPercent(s.below, s.results),
      },
      levelsOverTime: overTime.map((p) => ({
        period: p.period.toISOString().slice(0, 10),
        above: p.above,
        at: p.at,
        below: p.below,
      })),
      columns: table.columns,
      rows: table.rows,
      totalRows: table.total,
      recentResults: recent.rows.slice(0, RECENT_RESULTS).map(toTeacherResult),
    };
  }

  return {
    requireClass,

    /**
     * The classes of a live stream, each the caller's (else 404): one class waits for a copy that
     * is on its way, as the other calls about one class do; several answer at once (their page
     * read them from here already), so that a list of made-up fresh ids cannot hold a request for
     * the sum of the waits.
     */
    async requireClasses(scope: Scope, ids: readonly string[]) {
      if (ids.length === 1) await requireClass(scope, ids[0]!);
      else await classesFor(scope, [...ids]);
    },

    async classResults(scope: Scope, classId: string) {
      await requireClass(scope, classId);
      return (await q.classResults(scope, classId)).map(toTeacherResult);
    },

    async allResults(scope: Scope, page: { limit: number; offset: number }) {
      const { total, rows } = await q.scopeResults(scope, page);
      return { total, results: rows.map(toTeacherResult) };
    },

    async grid(scope: Scope, classId: string) {
      const cls = await requireClass(scope, classId);
      // The class's own tenant: a co-teacher's scope names theirs, which may be another.
      const g = await q.grid({ ...scope, tenantId: cls.tenantId }, classId);
      return {
        classId,
        className: cls.name,
        students: g.students,
        assessments: g.assessments.map((a) => ({ ...a, createdAt: a.createdAt.toISOString() })),
        cells: g.cells.map((c) => ({ ...c, percentage: round2(c.percentage) })),
        inProgress: g.inProgress,
      };
    },

    async students(scope: Scope, filter: { classId?: string; search?: string; limit: number; offset: number }) {
      if (filter.classId) await requireClass(scope, filter.classId);
      const [found, classes] = await Promise.all([q.students(scope, filter), q.classesInScope(scope)]);
      const recentOf = groupBy(found.recent, (r) => r.studentId);
      const classesOf = groupBy(found.classes, (c) => c.studentId);
      return {
        stats: {
          totalStudents: found.stats.total,
          aboveStandard: found.stats.above,
          atStandard: found.stats.at,
          belowStandard: found.stats.below,
        },
        total: found.stats.total,
        students: found.page.map((p) => {
          const average = p.n > 0 && p.s !== null ? round2(p.s / p.n) : null;
          const band = p.n > 0 && p.s !== null ? studentBand(p.n, p.s) : null;
          return {
            id: p.id,
            firstName: p.firstName,
            lastName: p.lastName,
            email: p.email,
            average,
            // Banded as shown: a 79.6 average reads 80 %, so it is above standard.
            band,
            resultCount: p.n,
            classes: (classesOf.get(p.id) ?? []).map(({ id, name, period }) => ({ id, name, period })),
            results: (recentOf.get(p.id) ?? []).map((r) => ({
              resultId: r.resultId,
              assessmentId: r.assessmentId,
              title: r.title,
              percentage: round2(r.percentage),
              performanceLevel: r.performanceLevel,
              originalLevel: r.originalLevel,
              raisedBy: r.raisedBy,
              raisedAttempt: r.raisedAttempt,
              submittedAt: r.submittedAt.toISOString(),
            })),
          };
        }),
        classes,
      };
    },

    report: (scope: Scope, request: ReportRequest) => report(scope, request, REPORT_ROW_LIMIT),
    exportReport: (scope: Scope, request: ReportRequest, format: keyof typeof EXPORT_ROW_LIMITS) =>
      report(scope, request, EXPORT_ROW_LIMITS[format]),

    /** Who has started, how many questions each has answered, who has submitted: no answers. */
    async attemptProgress(scope: Scope, assessmentId: string) {
      const assessment = await awaitRecent(assessmentId, () => q.assessmentInScope(scope, assessmentId));
      if (!assessment) throw new NotFoundError(ASSESSMENT_NOT_FOUND);
      const p = await q.attemptProgress(scope, assessmentId, assessment.classId);
      const students = p.students.map((s) => {
        const status = s.submittedAt ? 'submitted' : s.answered !== null ? 'in_progress' : 'not_started';
        return {
          studentId: s.studentId,
          firstName: s.firstName,
          lastName: s.lastName,
          status,
          answered: status === 'in_progress' ? s.answered : null,
          startedAt: status === 'in_progress' && s.startedAt ? s.startedAt.toISOString() : null,
          lastSavedAt: status === 'in_progress' && s.updatedAt ? s.updatedAt.toISOString() : null,
          submittedAt: s.submittedAt ? s.submittedAt.toISOString() : null,
        } as const;
      });
      const count = (status: string) => students.filter((s) => s.status === status).length;
      return {
        assessmentId,
        classId: assessment.classId,
        questionCount: p.questionCount,
        counts: { notStarted: count('not_started'), inProgress: count('in_progress'), submitted: count('submitted') },
        students,
      };
    },

    async assessmentResults(scope: Scope, assessmentId: string) {
      const assessment = await awaitRecent(assessmentId, () => q.assessmentInScope(scope, assessmentId));
      if (!assessment) throw new NotFoundError(ASSESSMENT_NOT_FOUND);
      const d = await q.assessmentDetail(assessment);
      const answersOf = groupBy(d.answers, (a) => a.resultId);
      const practiceOf = groupBy(d.practice, (p) => p.studentId);
      const itemResults: ItemResult[] = d.results.map((r) => ({
        id: r.id,
        percentage: r.percentage,
        answers: new Map((answersOf.get(r.id) ?? []).map((a) => [a.questionId, a])),
      }));
      const percentages = d.results.map((r) => r.percentage);
      const count = (level: string) => d.results.filter((r) => r.performanceLevel === level).length;
      return {
        assessment: {
          id: assessment.id,
          title: assessment.title,
          topic: assessment.topic,
          classId: assessment.classId,
          className: assessment.className,
          questionCount: d.questions.length,
        },
        summary: {
          submitted: d.results.length,
          classSize: d.classSize,
          averageScore: percentages.length > 0 ? Math.round(mean(percentages)!) : null,
          aboveStandard: count('above'),
          atStandard: count('at'),
          belowStandard: count('below'),
        },
        classes: classBreakdown(d.classes, d.results),
        results: d.results.map((r) => ({
          id: r.id,
          studentId: r.studentId,
          classId: r.classId,
          className: r.className,
          student: { firstName: r.firstName, lastName: r.lastName },
          percentage: round2(r.percentage),
          earnedPoints: r.earnedPoints,
          totalPoints: r.totalPoints,
          performanceLevel: r.performanceLevel,
          originalLevel: r.originalLevel,
          raisedBy: r.raisedBy,
          raisedAttempt: r.raisedAttempt,
          attempt: r.attempt,
          submittedAt: r.submittedAt.toISOString(),
          practice: (practiceOf.get(r.studentId) ?? []).map(({ type, attempts, bestScore }) => ({
            type,
            attempts,
            bestScore: round2(bestScore),
          })),
          answers: (answersOf.get(r.id) ?? []).map(({ questionId, answer, correct, pending }) => ({
            questionId,
            answer,
            correct,
            pending,
          })),
        })),
        questions: d.questions.map((question) => ({
          ...question,
          ...itemStatistics(question, itemResults),
        })),
        distribution: distribution(percentages),
        standards: d.standards.map(({ scores, ...s }) => {
          const average = mean(scores);
          const levels = { below: 0, at: 0, above: 0 };
          for (const score of scores) levels[masteryLevel(score)]++;
          return { ...s, averagePercentage: average === null ? null : round2(average), levels };
        }),
      };
    },

    async adminStats(tenantId: string) {
      const s = await q.adminStats(tenantId);
      const f = s.figures;
      return {
        totalUsers: s.people.users,
        totalTeachers: s.people.teachers,
        totalStudents: s.people.students,
        totalClasses: s.counts.classes,
        totalAssessments: s.counts.assessments,
        totalResponses: f?.results ?? 0,
        recentSignups: s.recent.map((p) => ({
          name: fullName(p.firstName, p.lastName),
          email: p.email,
          role: p.role,
          date: p.registeredAt.toISOString(),
        })),
        averageScore: f && f.results > 0 ? Math.round(f.percentage_sum / f.results) : 0,
        levels: { below: f?.below ?? 0, at: f?.at ?? 0, above: f?.above ?? 0 },
      };
    },

    usage: (tenantId: string, userId: string) => q.usage(tenantId, userId),
  };
}

export type AnalyticsUseCases = ReturnType<typeof analyticsUseCases>;

/**
 * Each class an assessment is given to with the results filed under it; a class that has results
 * but no longer gives it (a student's result from a class they left) is listed too.
 */
export function classBreakdown(
  given: { classId: string; className: string; n: number }[],
  results: { classId: string; className: string; percentage: number }[],
) {
  const classes = new Map(given.map((c) => [c.classId, { ...c, scores: [] as number[] }]));
  for (const r of results) {
    const c = classes.get(r.classId) ?? { classId: r.classId, className: r.className, n: 0, scores: [] };
    c.scores.push(r.percentage);
    classes.set(r.classId, c);
  }
  return [...classes.values()].map(({ classId, className, n, scores }) => {
    const average = mean(scores);
    return {
      classId,
      className,
      classSize: n,
      submitted: scores.length,
      averageScore: average === null ? null : Math.round(average),
    };
  });
}
