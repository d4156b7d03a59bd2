// Public API of @checkpoint/events: generated contracts, envelope, outbox + relay, inbox, buses.
export { create, toBinary, fromBinary } from '@bufbuild/protobuf';
export { timestampFromDate } from '@bufbuild/protobuf/wkt';
export * from './gen/identity/v1/events_pb.ts';
export * from './gen/class/v1/events_pb.ts';
export * from './gen/assessment/v1/events_pb.ts';
export * from './gen/generation/v1/events_pb.ts';
export * from './gen/privacy/v1/events_pb.ts';
export { eventRegistry, topicFor, type EventOf, type KnownEvent, type KnownEventType } from './registry.ts';
export { buildHeaders, readEnvelope, CONTENT_TYPE, type EventEnvelope } from './envelope.ts';
export {
  deleteInBatches,
  inboxRetentionIndexSql,
  outboxSchemaSql,
  sqlExecutor,
  type SqlExecutor,
  type TransactionRunner,
} from './db.ts';
export {
  enqueueEvent,
  enqueueTombstone,
  markOutboxForErasure,
  ERASE_AFTER_PUBLISH_HEADER,
  TOMBSTONE_TYPE,
  type EnqueueEventInput,
} from './outbox.ts';
export { PollingLoop, type PollingLoopLogger, type PollingLoopOptions } from './polling-loop.ts';
export { OutboxRelay, type OutboxRelayOptions, type RelayMetrics } from './relay.ts';
export { inboxConsumer, type EventHandler, type InboxConsumer, type InboxHandlers } from './inbox.ts';
export {
  defaultRetryPolicy,
  silentLogger,
  type Bus,
  type BatchHandler,
  type BusHandler,
  type BusMessage,
  type DeadLetter,
  type Logger,
  type RetryPolicy,
  type SubscribeOptions,
} from './bus.ts';
export { InProcessBus, type InProcessBusOptions } from './in-process-bus.ts';
export {
  KafkaBus,
  dlqTopic,
  DLQ_ERROR_HEADER,
  DLQ_GROUP_HEADER,
  type EventBacklog,
  type KafkaBusOptions,
} from './kafka-bus.ts';
export { contextOf } from './tracing.ts';
export {
  collectSubjectRows,
  deleteFoundRows,
  eraseSubjects,
  erasedPseudonym,
  exportDocument,
  splitText,
  subjectHash,
  PRIVACY_SKIPPED_TABLES,
  type FoundRows,
} from './privacy-data.ts';
