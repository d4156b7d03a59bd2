// assessment's facts → the class counts: assessmentCount from AssessmentCreated/Deleted, and
// below/at/above = the class's students by the level of their latest result (ResultSubmitted,
// ResultLevelRaised, ResultRegraded; a deleted assessment's results stop counting).
import { timestampDate } from '@bufbuild/protobuf/wkt';
import type { InboxHandlers, ResultSubmitted } from '@checkpoint/events';
import type { Tx } from '../data-access/prisma.ts';

export const ASSESSMENT_TOPIC = 'checkpoint.assessment.v1';

/** Recomputes the three level counts of one class from its students' latest results. */
async function recountLevels(tx: Tx, classId: string): Promise<void> {
  await tx.$executeRawUnsafe(
    `update classes c
        set below_standard = l.below, at_standard = l.at, above_standard = l.above
       from (select count(*) filter (where level = 'below')::int as below,
                    count(*) filter (where level = 'at')::int as at,
                    count(*) filter (where level = 'above')::int as above
               from (select distinct on (student_id) level from class_results
                      where class_id = $1::uuid
                      order by student_id, submitted_at desc, result_id desc) latest) l
      where c.id = $1::uuid`,
    classId,
  );
}

/** Stores a submitted result (once; only for a class that still exists) and recounts its class. */
async function keepResult(tx: Tx, m: ResultSubmitted): Promise<void> {
  // Only for a class that still exists (a deleted class takes its rows with it).
  await tx.$executeRawUnsafe(
    `insert into class_results (result_id, class_id, assessment_id, student_id, level, submitted_at)
     select $1::uuid, c.id, $3::uuid, $4::uuid, $5, $6 from classes c where c.id = $2::uuid
     on conflict (result_id) do nothing`,
    m.resultId,
    m.classId,
    m.assessmentId,
    m.studentId,
    m.level,
    m.submittedAt ? timestampDate(m.submittedAt) : new Date(),
  );
  await recountLevels(tx, m.classId);
}

/** The student's result of the assessment that counts is now `m`: any other of theirs goes. */
async function keepCountedResult(tx: Tx, m: ResultSubmitted): Promise<void> {
  const gone = await tx.$queryRawUnsafe<{ class_id: string }[]>(
    `delete from class_results where assessment_id = $1::uuid and student_id = $2::uuid and result_id <> $3::uuid
     returning class_id`,
    m.assessmentId,
    m.studentId,
    m.resultId,
  );
  await keepResult(tx, m);
  for (const g of gone) if (g.class_id !== m.classId) await recountLevels(tx, g.class_id);
}

export function assessmentEventHandlers(): InboxHandlers<Tx> {
  return {
    'checkpoint.assessment.v1.AssessmentCreated': async (tx, m) => {
      await tx.$executeRawUnsafe(
        'update classes set assessment_count = assessment_count + 1 where id = $1::uuid',
        m.classId,
      );
    },
    'checkpoint.assessment.v1.AssessmentDeleted': async (tx, m) => {
      await tx.$executeRawUnsafe(
        'update classes set assessment_count = greatest(assessment_count - 1, 0) where id = $1::uuid',
        m.classId,
      );
      await tx.classResult.deleteMany({ where: { assessmentId: m.assessmentId } });
      await recountLevels(tx, m.classId);
    },
    // Only the attempt that counts is kept (docs/architecture.md, "Retakes and reopening"); an
    // event from before retakes (attempt 0) is the only attempt.
    'checkpoint.assessment.v1.ResultSubmitted': async (tx, m) => {
      if (m.attempt === 0) await keepResult(tx, m);
      else if (m.counted) await keepCountedResult(tx, m);
    },
    'checkpoint.assessment.v1.CountedResultChanged': async (tx, m) => {
      if (m.result) await keepCountedResult(tx, m.result);
    },
    'checkpoint.assessment.v1.ResultWithdrawn': async (tx, m) => {
      const gone = await tx.$queryRawUnsafe<{ class_id: string }[]>(
        'delete from class_results where result_id = $1::uuid returning class_id',
        m.resultId,
      );
      for (const g of gone) await recountLevels(tx, g.class_id);
    },
    'checkpoint.assessment.v1.ResultLevelRaised': async (tx, m) => {
      await tx.classResult.updateMany({ where: { resultId: m.resultId }, data: { level: m.toLevel } });
      await recountLevels(tx, m.classId);
    },
    // The teacher's regrade: the result's level now (the assessment service's one rule decided it).
    'checkpoint.assessment.v1.ResultRegraded': async (tx, m) => {
      await tx.classResult.updateMany({ where: { resultId: m.resultId }, data: { level: m.level } });
      await recountLevels(tx, m.classId);
    },
  };
}
