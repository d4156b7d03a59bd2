// Mastery of a standard over time (docs/architecture.md, "Mastery of standards"). The rule is the
// decaying average that PowerSchool and Schoology offer as their "decaying average" calculation:
// the student's pieces of evidence for one standard, oldest first; the first one is the mastery;
// each later one is weighted 65 % and the mastery so far 35 %. Recent work counts most, but one bad
// day after a run of good ones does not erase them. Level by the submission bands (below < 80,
// at from 80, above from 90) of the score as shown (2 decimals).
//
// Evidence is a scored submission (ResultSubmitted) of an assessment with questions aligned to the
// standard: the points earned on the aligned questions the result scored over their points. A
// level raised by support practice (ResultLevelRaised) and practice completions are NOT evidence:
// practice is scaffolded and retried until passed, so it would say more about persistence than
// about the standard.
import type { Level } from './events.ts';
import { round2 } from './figures.ts';

/** The weight of each new piece of evidence; the running value keeps 1 − this. */
export const DECAY_WEIGHT = 0.65;

export interface Evidence {
  /** 0–100: the score on the standard's aligned items of one result. */
  score: number;
  at: Date;
  /** Orders evidence of the same instant (the result's id). */
  id: string;
}

export interface Mastery {
  /** 0–100, 2 decimals. */
  score: number;
  level: Level;
  evidenceCount: number;
}

/** Oldest first; equal times by id, so that every replica and replay computes the same value. */
export const byTime = (a: Evidence, b: Evidence) => a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : 1);

/** The level of a mastery score, by the submission bands. */
export function masteryLevel(score: number): Level {
  const shown = round2(score);
  return shown >= 90 ? 'above' : shown >= 80 ? 'at' : 'below';
}

/** The decaying average of the evidence (any order given; taken oldest first); undefined without evidence. */
export function mastery(evidence: readonly Evidence[]): Mastery | undefined {
  if (evidence.length === 0) return undefined;
  const ordered = [...evidence].sort(byTime);
  let value = ordered[0]!.score;
  for (const e of ordered.slice(1)) value = DECAY_WEIGHT * e.score + (1 - DECAY_WEIGHT) * value;
  const score = round2(value);
  return { score, level: masteryLevel(score), evidenceCount: ordered.length };
}

/** A group of students shown in the district's view: its figures, or none when too small. */
export interface GroupFigures {
  students: number;
  scoreSum: number;
  below: number;
  at: number;
  above: number;
}

/** Groups of fewer students than this are shown without figures (privacy). */
export const MIN_GROUP = 5;

/** A group's shown figures: average mastery score, its level, and students by level. */
export function groupSummary(g: GroupFigures) {
  const score = g.students > 0 ? round2(g.scoreSum / g.students) : 0;
  return { students: g.students, score, level: masteryLevel(score), below: g.below, at: g.at, above: g.above };
}

/**
 * Which schools and classes of one standard to suppress, schools holding classes and the district
 * holding schools: every group of fewer than MIN_GROUP students; under every parent that is shown
 * (the district when its total is, each school shown), the next smallest non-empty child while
 * the hidden children hold fewer than MIN_GROUP students together, so that the parent less its
 * shown children does not give them away; and every class of a hidden school, so that its classes
 * do not add up to it. Repeated until nothing changes.
 */
export function suppressedHierarchy(
  schools: readonly { students: number; classes: readonly number[] }[],
  classes: readonly { students: number }[],
  totalShown: boolean,
): { schools: Set<number>; classes: Set<number> } {
  const hiddenSchools = new Set<number>();
  const hiddenClasses = new Set<number>();
  const hideNextSmallest = (members: readonly { i: number; n: number }[], hidden: Set<number>) => {
    // Empty groups (no student yet) give nothing away and protect nothing. While the hidden ones
    // hold fewer than MIN_GROUP students together, the parent less its shown children is them.
    const present = members.filter((m) => m.n > 0);
    const hiddenStudents = present.filter((m) => hidden.has(m.i)).reduce((sum, m) => sum + m.n, 0);
    if (hiddenStudents === 0 || hiddenStudents >= MIN_GROUP) return false;
    const next = present.filter((m) => !hidden.has(m.i)).sort((a, b) => a.n - b.n || a.i - b.i)[0];
    if (!next) return false;
    hidden.add(next.i);
    return true;
  };
  schools.forEach((s, i) => s.students < MIN_GROUP && hiddenSchools.add(i));
  classes.forEach((c, i) => c.students < MIN_GROUP && hiddenClasses.add(i));
  for (let changed = true; changed;) {
    changed = false;
    if (totalShown)
      changed =
        hideNextSmallest(
          schools.map((s, i) => ({ i, n: s.students })),
          hiddenSchools,
        ) || changed;
    schools.forEach((s, si) => {
      const members = s.classes.map((i) => ({ i, n: classes[i]!.students }));
      if (!hiddenSchools.has(si)) {
        changed = hideNextSmallest(members, hiddenClasses) || changed;
        return;
      }
      for (const m of members.filter((m) => !hiddenClasses.has(m.i))) {
        hiddenClasses.add(m.i);
        changed = true;
      }
    });
  }
  return { schools: hiddenSchools, classes: hiddenClasses };
}
