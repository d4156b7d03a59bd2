// The roll-up of a district's common assessment: the district, each school and each class that was
// given a copy, with students, submitted, average percentage and levels, and per standard (the
// questions' alignment) the average share of points earned. A group with fewer than MIN_GROUP
// students who submitted shows no figures (`suppressed: true`), and so does the next smallest of
// its siblings and every class of a hidden school (as the district's standards view): the
// district and school views must not single out a student, not even by subtraction.
import { csvText } from '@checkpoint/service-kit';
import type { ClassFigures, StandardFigures } from '../data-access/common-assessments.queries.ts';
import { MIN_GROUP } from '../data-access/common-assessments.queries.ts';
import { suppressedHierarchy } from './mastery.ts';

export interface StandardLine {
  identifier: string;
  code: string;
  suppressed: boolean;
  students?: number;
  averagePercentage?: number;
}

export interface GroupFigures {
  suppressed: boolean;
  students?: number;
  submitted?: number;
  averagePercentage?: number;
  levels?: { below: number; at: number; above: number };
  standards?: StandardLine[];
}

export interface CommonReport {
  commonAssessmentId: string;
  title: string;
  district: GroupFigures;
  schools: (GroupFigures & {
    schoolId: string;
    schoolName: string;
    classes: (GroupFigures & { classId: string; className: string })[];
  })[];
}

const round1 = (n: number) => Math.round(n * 10) / 10;

type StudentStandard = StandardFigures & { studentId: string };

/** The figures of a group of classes (suppressed below MIN_GROUP submitted). */
function group(classes: ClassFigures[], standards: StudentStandard[]): GroupFigures {
  const submitted = classes.reduce((n, c) => n + c.submitted, 0);
  if (submitted < MIN_GROUP) return { suppressed: true };
  const sum = classes.reduce((n, c) => n + c.percentageSum, 0);
  const byStandard = new Map<string, { code: string; percentages: number[] }>();
  for (const s of standards) {
    // Nothing possible: every aligned answer waits for review, no evidence yet (not 0 %).
    if (!(s.possible > 0)) continue;
    const line = byStandard.get(s.identifier) ?? { code: s.code, percentages: [] };
    line.percentages.push((s.earned / s.possible) * 100);
    byStandard.set(s.identifier, line);
  }
  return {
    suppressed: false,
    students: classes.reduce((n, c) => n + c.students, 0),
    submitted,
    averagePercentage: round1(sum / submitted),
    levels: {
      below: classes.reduce((n, c) => n + c.below, 0),
      at: classes.reduce((n, c) => n + c.at, 0),
      above: classes.reduce((n, c) => n + c.above, 0),
    },
    standards: [...byStandard.entries()]
      .sort(([, a], [, b]) => a.code.localeCompare(b.code))
      .map(([identifier, { code, percentages }]) =>
        percentages.length < MIN_GROUP
          ? { identifier, code, suppressed: true }
          : {
              identifier,
              code,
              suppressed: false,
              students: percentages.length,
              averagePercentage: round1(percentages.reduce((a, b) => a + b, 0) / percentages.length),
            },
      ),
  };
}

export function commonReport(
  commonAssessmentId: string,
  title: string,
  classes: ClassFigures[],
  standards: StudentStandard[],
): CommonReport {
  const ofClasses = (ids: Set<string>) => standards.filter((s) => ids.has(s.classId));
  const bySchool = new Map<string, ClassFigures[]>();
  for (const c of classes) bySchool.set(c.schoolId, [...(bySchool.get(c.schoolId) ?? []), c]);
  const schools = [...bySchool.values()];
  const district = group(classes, standards);
  // Beyond the small groups themselves, the ones that would give a small one away by subtraction
  // (the district's rule, domain/mastery.ts): counted by who submitted, as `group` suppresses.
  const flat = schools.flat();
  const hidden = suppressedHierarchy(
    schools.map((list) => ({
      students: list.reduce((n, c) => n + c.submitted, 0),
      classes: list.map((c) => flat.indexOf(c)),
    })),
    flat.map((c) => ({ students: c.submitted })),
    !district.suppressed,
  );
  const shown = (isHidden: boolean, figures: () => GroupFigures): GroupFigures =>
    isHidden ? { suppressed: true } : figures();
  return {
    commonAssessmentId,
    title,
    district,
    schools: schools.map((list, si) => ({
      schoolId: list[0]!.schoolId,
      schoolName: list[0]!.schoolName,
      ...shown(hidden.schools.has(si), () => group(list, ofClasses(new Set(list.map((c) => c.classId))))),
      classes: list.map((c) => ({
        classId: c.classId,
        className: c.className,
        ...shown(hidden.classes.has(flat.indexOf(c)), () => group([c], ofClasses(new Set([c.classId])))),
      })),
    })),
  };
}

const NO_FIGURES = ['', '', '', '', '', '', 'yes'];

/** A group's figures in the CSV's columns (students … above, suppressed). */
const groupCells = (g: GroupFigures) =>
  g.suppressed
    ? NO_FIGURES
    : [g.students, g.submitted, g.averagePercentage, g.levels?.below, g.levels?.at, g.levels?.above, 'no'];

/** A standard line in the same columns: students and average only (submitted and levels are the group's). */
const standardCells = (s: StandardLine) =>
  s.suppressed ? NO_FIGURES : [s.students, '', s.averagePercentage, '', '', '', 'no'];

/**
 * The report as CSV (the shared writer: formula-looking text escaped): per group (the district,
 * each school, each class) one line over all questions, then one line per standard. A suppressed
 * group or standard has empty figures and "yes" in the last column; it has no standard lines, as
 * the report has none.
 */
export function commonReportCsv(report: CommonReport): string {
  const school = (name: string) => name || 'No school known';
  const lines = (title: string, group: string, schoolName: string, className: string, g: GroupFigures) => [
    [title, group, schoolName, className, 'All questions', '', ...groupCells(g)],
    ...(g.standards ?? []).map((s) => [title, group, schoolName, className, s.code, s.identifier, ...standardCells(s)]),
  ];
  const t = report.title;
  const rows = [
    ...lines(t, 'District', 'All schools', 'All classes', report.district),
    ...report.schools.flatMap((s) => [
      ...lines(t, 'School', school(s.schoolName), 'All classes', s),
      ...s.classes.flatMap((c) => lines(t, 'Class', school(s.schoolName), c.className, c)),
    ]),
  ];
  const header = [
    'Assessment',
    'Group',
    'School',
    'Class',
    'Standard',
    'Standard identifier',
    'Students',
    'Submitted',
    'Average %',
    'Below',
    'At',
    'Above',
    'Suppressed (fewer than 5 students)',
  ];
  return csvText([header, ...rows], { bom: true });
}
