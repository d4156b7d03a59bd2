// Consuming an event: one DB transaction per event that records it in the inbox and runs the
// effect only the first time, so redelivery is harmless.
import { fromBinary, type Message } from '@bufbuild/protobuf';
import type { BusHandler } from './bus.ts';
import type { SqlExecutor, TransactionRunner } from './db.ts';
import { readEnvelope, type EventEnvelope } from './envelope.ts';
import { eventRegistry, type EventOf, type KnownEventType } from './registry.ts';

export type EventHandler<Tx, M> = (tx: Tx, message: M, envelope: EventEnvelope) => Promise<void>;

/** Effects by `ce_type`; each runs inside the transaction that records the inbox row. */
export type InboxHandlers<Tx extends SqlExecutor> = { [T in KnownEventType]?: EventHandler<Tx, EventOf<T>> };

/**
 * Builds the bus handler of one consumer group. Types without a handler (including types this
 * build does not know) are acknowledged and skipped; a handler error rolls the transaction back
 * and is rethrown so that the bus retries (and finally dead-letters) the message.
 */
export function createInboxHandler<Tx extends SqlExecutor>(
  db: TransactionRunner<Tx>,
  groupId: string,
  handlers: InboxHandlers<Tx>,
): BusHandler {
  const byType = handlers as Partial<Record<string, EventHandler<Tx, Message>>>;
  return async (busMessage) => {
    const envelope = readEnvelope(busMessage);
    const handle = byType[envelope.type];
    const schema = eventRegistry.getMessage(envelope.type);
    if (!handle || !schema) return;
    const message = fromBinary(schema, busMessage.value);
    await db.$transaction(async (tx) => {
      const inserted = await tx.$executeRawUnsafe(
        'insert into inbox (consumer_group, event_id) values ($1, $2) on conflict do nothing',
        groupId,
        envelope.id,
      );
      if (inserted === 0) return;
      await handle(tx, message, envelope);
    });
  };
}
