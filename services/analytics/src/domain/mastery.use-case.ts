// What the mastery calls answer (docs/architecture.md, "Mastery of standards"): a class's heatmap,
// a student's standards with their trend, the district's standards per class with small groups
// suppressed, and each as CSV. A class or student outside the caller's scope answers 404.
import { csvText, lookupNow, NotFoundError, type AwaitRecent, type Caller } from '@checkpoint/service-kit';
import type { DistrictPage, MasteryQueries } from '../data-access/mastery.queries.ts';
import type { ResultsQueries } from '../data-access/results.queries.ts';
import { scopeOf } from './access.ts';
import { CLASS_NOT_FOUND } from './analytics.use-case.ts';
import { groupBy } from './figures.ts';
import { groupSummary, mastery, MIN_GROUP, suppressedHierarchy, type GroupFigures } from './mastery.ts';

export const STUDENT_NOT_FOUND = 'Student not found';

const fullName = (first: string, last: string) => `${first} ${last}`.trim();
const LEVEL_TEXT = { below: 'Below', at: 'At', above: 'Above' } as const;

export function masteryUseCases(mq: MasteryQueries, q: ResultsQueries, awaitRecent: AwaitRecent = lookupNow) {
  async function heatmap(caller: Caller, classId: string) {
    const scope = scopeOf(caller);
    const found = await awaitRecent(classId, () => q.classInScope(scope, classId));
    if (!found) throw new NotFoundError(CLASS_NOT_FOUND);
    // The class's own tenant: a co-teacher's scope names theirs, which may be another.
    const { students, cells } = await mq.classHeatmap({ ...scope, tenantId: found.tenantId }, classId);
    const of = groupBy(cells, (c) => c.studentId);
    return {
      className: found.name,
      rows: students.map((s) => ({
        studentId: s.id,
        studentName: fullName(s.firstName, s.lastName),
        standards: (of.get(s.id) ?? []).map(({ identifier, code, level, evidenceCount, score }) => ({
          identifier,
          code,
          level,
          evidenceCount,
          score,
        })),
      })),
    };
  }

  async function studentMastery(caller: Caller, studentId: string) {
    const own = caller.role === 'student';
    if (own && caller.userId.toLowerCase() !== studentId) throw new NotFoundError(STUDENT_NOT_FOUND);
    const scope = own ? null : scopeOf(caller);
    if (scope && !(await mq.studentVisible(scope, studentId))) throw new NotFoundError(STUDENT_NOT_FOUND);
    const evidence = await mq.studentEvidence(studentId, scope);
    return [...groupBy(evidence, (e) => e.identifier).values()].map((list) => {
      const m = mastery(list.map((e) => ({ score: e.score, at: e.submittedAt, id: e.resultId })))!;
      return {
        identifier: list[0]!.identifier,
        code: list.at(-1)!.code,
        level: m.level,
        score: m.score,
        evidenceCount: m.evidenceCount,
        trend: list.map((e) => ({
          assessmentId: e.assessmentId,
          title: e.title,
          submittedAt: e.submittedAt.toISOString(),
          score: Math.round(e.score * 100) / 100,
        })),
      };
    });
  }

  async function district(caller: Caller, page: DistrictPage) {
    const { total, rows } = await mq.districtFigures(caller.tenantId, page);
    const standards = [...groupBy(rows, (r) => r.identifier).values()].map((classes) => {
      const total = sumFigures(classes);
      const totalShown = total.students >= MIN_GROUP;
      // The classes' schools (a class of no known school in a group of its own, schoolId '').
      // By name, the classes of no known school last.
      const bySchool = [...groupBy(classes, (c) => c.schoolId).values()].sort(
        (a, b) => Number(!a[0]!.schoolId) - Number(!b[0]!.schoolId) || a[0]!.schoolName.localeCompare(b[0]!.schoolName),
      );
      const schools = bySchool.map((members) => ({
        schoolId: members[0]!.schoolId,
        schoolName: members[0]!.schoolName,
        classes: members.map((m) => classes.indexOf(m)),
        ...sumFigures(members),
      }));
      const hidden = suppressedHierarchy(schools, classes, totalShown);
      return {
        identifier: classes[0]!.identifier,
        code: classes[0]!.code,
        ...(totalShown ? { suppressed: false, ...groupSummary(total) } : { suppressed: true }),
        schools: schools.map((g, i) => ({
          schoolId: g.schoolId,
          schoolName: g.schoolName,
          ...(hidden.schools.has(i) ? { suppressed: true } : { suppressed: false, ...groupSummary(g) }),
        })),
        classes: classes.map((c, i) => ({
          classId: c.classId,
          className: c.className,
          period: c.period,
          teacherName: c.teacherName,
          schoolId: c.schoolId,
          schoolName: c.schoolName,
          ...(hidden.classes.has(i) ? { suppressed: true } : { suppressed: false, ...groupSummary(c) }),
        })),
      };
    });
    return { total, standards };
  }

  return {
    classMastery: async (caller: Caller, classId: string) => (await heatmap(caller, classId)).rows,

    async classMasteryCsv(caller: Caller, classId: string) {
      const { className, rows } = await heatmap(caller, classId);
      const lines = rows.flatMap((r) =>
        r.standards.map((s) => [
          r.studentName,
          r.studentId,
          s.code,
          s.identifier,
          LEVEL_TEXT[s.level],
          s.score,
          s.evidenceCount,
        ]),
      );
      return {
        className,
        csv: csvText(
          [['Student', 'Student ID', 'Standard', 'Standard identifier', 'Level', 'Score', 'Evidence'], ...lines],
          { bom: true },
        ),
      };
    },

    studentMastery,

    /** The student's standards as CSV: one row per standard and piece of evidence (its trend). */
    async studentMasteryCsv(caller: Caller, studentId: string) {
      const standards = await studentMastery(caller, studentId);
      const who = await mq.studentName(studentId);
      const name = who ? fullName(who.firstName, who.lastName) : '';
      const lines = standards.flatMap((s) =>
        s.trend.map((t) => [
          name,
          studentId,
          s.code,
          s.identifier,
          LEVEL_TEXT[s.level],
          s.score,
          s.evidenceCount,
          t.title,
          t.submittedAt,
          t.score,
        ]),
      );
      const header = [
        'Student',
        'Student ID',
        'Standard',
        'Standard identifier',
        'Level',
        'Mastery',
        'Evidence',
        'Assessment',
        'Submitted at',
        'Score on the standard',
      ];
      return csvText([header, ...lines], { bom: true });
    },

    district,

    /** Every standard of the district (the download is not paged). */
    async districtCsv(caller: Caller) {
      const { standards } = await district(caller, { limit: 100_000, offset: 0 });
      const figures = (g: { suppressed: boolean } & Partial<ReturnType<typeof groupSummary>>) =>
        g.suppressed
          ? [null, null, null, null, null, null, 'yes']
          : [g.students, g.score, LEVEL_TEXT[g.level!], g.below, g.at, g.above, 'no'];
      const school = (name: string) => name || 'No school known';
      const lines = standards.flatMap((s) => [
        [s.code, s.identifier, 'All schools', 'All classes', '', ...figures(s)],
        ...s.schools.map((g) => [s.code, s.identifier, school(g.schoolName), 'All classes', '', ...figures(g)]),
        ...s.classes.map((c) => [
          s.code,
          s.identifier,
          school(c.schoolName),
          c.period ? `${c.className} - Period ${c.period}` : c.className,
          c.teacherName,
          ...figures(c),
        ]),
      ]);
      const header = [
        'Standard',
        'Standard identifier',
        'School',
        'Class',
        'Teacher',
        'Students',
        'Average mastery',
        'Level',
        'Below',
        'At',
        'Above',
        'Suppressed (fewer than 5 students)',
      ];
      return csvText([header, ...lines], { bom: true });
    },
  };
}

export type MasteryUseCases = ReturnType<typeof masteryUseCases>;

/** The figures of groups added up (a student in two of them counts in each). */
function sumFigures(groups: readonly GroupFigures[]): GroupFigures {
  const sum: GroupFigures = { students: 0, scoreSum: 0, below: 0, at: 0, above: 0 };
  for (const g of groups) {
    sum.students += g.students;
    sum.scoreSum += g.scoreSum;
    sum.below += g.below;
    sum.at += g.at;
    sum.above += g.above;
  }
  return sum;
}
