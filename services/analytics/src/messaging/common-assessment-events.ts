// The common assessments' read model (data-access/common-assessments.queries.ts) follows the same
// events as the rest of the read model, in the same inbox transaction: each handler here runs
// after the read model's own handler of that event type (withCommonAssessments).
import type { Message } from '@bufbuild/protobuf';
import type { EventHandler, InboxHandlers } from '@checkpoint/events';
import type { Tx } from '../data-access/db.ts';
import {
  forgetClassSchool,
  forgetCommonCopy,
  keepClassSchool,
  keepCommonCopy,
  keepCopyStandards,
} from '../data-access/common-assessments.queries.ts';

const handlers: InboxHandlers<Tx> = {
  'checkpoint.class.v1.ClassCreated': (tx, m) => keepClassSchool(tx, m),
  'checkpoint.class.v1.ClassUpdated': (tx, m) => keepClassSchool(tx, m),
  'checkpoint.class.v1.ClassDeleted': (tx, m) => forgetClassSchool(tx, m.classId),
  'checkpoint.assessment.v1.AssessmentCreated': async (tx, m) => {
    if (m.commonAssessmentId) await keepCommonCopy(tx, m);
  },
  'checkpoint.assessment.v1.AssessmentDeleted': (tx, m) => forgetCommonCopy(tx, m.assessmentId),
  'checkpoint.assessment.v1.QuestionsChanged': (tx, m) => keepCopyStandards(tx, m.assessmentId, m.questions),
};

/** The read model's handlers, each followed by the common assessments' handler of its type. */
export function withCommonAssessments(base: InboxHandlers<Tx>): InboxHandlers<Tx> {
  type Handler = EventHandler<Tx, Message>;
  const byType = base as Partial<Record<string, Handler>>;
  const merged: Partial<Record<string, Handler>> = { ...byType };
  for (const [type, extra] of Object.entries(handlers as Partial<Record<string, Handler>>)) {
    const first = byType[type];
    merged[type] = first
      ? async (tx, m, envelope) => {
          await first(tx, m, envelope);
          await extra!(tx, m, envelope);
        }
      : extra;
  }
  return merged as InboxHandlers<Tx>;
}
