// The class group's one subscription: identity's user events and assessment's facts, one inbox.
// Each event is recorded in the inbox in the transaction of its effect, so redelivery is harmless.
import { inboxConsumer, type SubscribeOptions } from '@checkpoint/events';
import type { Db, Tx } from '../data-access/prisma.ts';
import { ASSESSMENT_TOPIC, assessmentEventHandlers } from './assessment-events.consumer.ts';
import { rosterEventHandlers } from './roster-events.consumer.ts';
import { studentAccountHandlers } from './student-accounts.consumer.ts';
import { IDENTITY_TOPIC, userEventHandlers } from './user-events.consumer.ts';

export const CLASS_GROUP = 'class';

export function inboundSubscription(db: Db): SubscribeOptions {
  return {
    groupId: CLASS_GROUP,
    topics: [IDENTITY_TOPIC, ASSESSMENT_TOPIC],
    ...inboxConsumer<Tx>(db, CLASS_GROUP, {
      ...userEventHandlers,
      ...rosterEventHandlers,
      ...studentAccountHandlers,
      ...assessmentEventHandlers(),
    }),
  };
}
