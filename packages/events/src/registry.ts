// The generated event messages this package knows, and the topic each one goes to.
import { createRegistry, type DescMessage } from '@bufbuild/protobuf';
import type { GenMessage } from '@bufbuild/protobuf/codegenv2';
import { file_class_v1_events } from './gen/class/v1/events_pb.ts';
import type * as classV1 from './gen/class/v1/events_pb.ts';
import { file_identity_v1_events } from './gen/identity/v1/events_pb.ts';
import type * as identityV1 from './gen/identity/v1/events_pb.ts';
import { file_assessment_v1_events } from './gen/assessment/v1/events_pb.ts';
import type * as assessmentV1 from './gen/assessment/v1/events_pb.ts';
import { file_generation_v1_events } from './gen/generation/v1/events_pb.ts';
import type * as generationV1 from './gen/generation/v1/events_pb.ts';
import { file_privacy_v1_events } from './gen/privacy/v1/events_pb.ts';
import type * as privacyV1 from './gen/privacy/v1/events_pb.ts';

/** Every generated file under proto/; add a new `proto/<service>/v1/events.proto` here. */
export const eventRegistry = createRegistry(
  file_identity_v1_events,
  file_class_v1_events,
  file_assessment_v1_events,
  file_generation_v1_events,
  file_privacy_v1_events,
);

type MessagesOf<M> = { [K in keyof M]: M[K] extends GenMessage<infer T> ? T : never }[keyof M];

/** Union of all known event messages. */
export type KnownEvent =
  | MessagesOf<typeof identityV1>
  | MessagesOf<typeof classV1>
  | MessagesOf<typeof assessmentV1>
  | MessagesOf<typeof generationV1>
  | MessagesOf<typeof privacyV1>;
/** Union of all known `ce_type` values, e.g. `checkpoint.identity.v1.UserRegistered`. */
export type KnownEventType = KnownEvent['$typeName'];
/** The message type of one `ce_type`. */
export type EventOf<T extends KnownEventType> = Extract<KnownEvent, { $typeName: T }>;

/**
 * The topic of an event: one per producing service and version (the proto package), so that all
 * events of one aggregate share a topic and keep their order by key.
 */
export function topicFor(schema: DescMessage): string {
  return schema.file.proto.package;
}
