// Consuming events: each event is recorded in the inbox in the same DB transaction as its effect,
// and the effect runs only the first time, so redelivery is harmless. Events that arrive together
// share one transaction (and one inbox statement); the bus falls back to one at a time when a
// batch fails.
import { fromBinary, type Message } from '@bufbuild/protobuf';
import type { BatchHandler, BusHandler, BusMessage } from './bus.ts';
import type { SqlExecutor, TransactionRunner } from './db.ts';
import { readEnvelope, type EventEnvelope } from './envelope.ts';
import { eventRegistry, type EventOf, type KnownEventType } from './registry.ts';

export type EventHandler<Tx, M> = (tx: Tx, message: M, envelope: EventEnvelope) => Promise<void>;

/** Effects by `ce_type`; each runs inside the transaction that records the inbox row. */
export type InboxHandlers<Tx extends SqlExecutor> = { [T in KnownEventType]?: EventHandler<Tx, EventOf<T>> };

/** The two entry points a bus subscription takes (see `SubscribeOptions`). */
export interface InboxConsumer {
  handler: BusHandler;
  batchHandler: BatchHandler;
}

/**
 * The consumer of one group. Types without a handler (including types this build does not know)
 * are acknowledged and skipped; a handler error rolls the whole transaction back and is rethrown,
 * so that the bus retries (and finally dead-letters) the message.
 */
export function inboxConsumer<Tx extends SqlExecutor>(
  db: TransactionRunner<Tx>,
  groupId: string,
  handlers: InboxHandlers<Tx>,
): InboxConsumer {
  const byType = handlers as Partial<Record<string, EventHandler<Tx, Message>>>;

  function decode(busMessage: BusMessage) {
    // A tombstone (null value) only tells a compacted topic to forget its key: nothing to do.
    if (busMessage.tombstone) return undefined;
    const envelope = readEnvelope(busMessage);
    const handle = byType[envelope.type];
    const schema = eventRegistry.getMessage(envelope.type);
    if (!handle || !schema) return undefined;
    return { envelope, handle, message: fromBinary(schema, busMessage.value) };
  }

  async function consume(busMessages: BusMessage[]): Promise<void> {
    const events = busMessages.map(decode).filter((e) => e !== undefined);
    if (events.length === 0) return;
    await db.$transaction(async (tx) => {
      const inserted = await tx.$queryRawUnsafe<{ event_id: string }[]>(
        `insert into inbox (consumer_group, event_id) select $1, unnest($2::text[])
         on conflict do nothing returning event_id`,
        groupId,
        events.map((e) => e.envelope.id),
      );
      const fresh = new Set(inserted.map((r) => r.event_id));
      // In delivery order; an event delivered twice in one batch runs once.
      for (const e of events) if (fresh.delete(e.envelope.id)) await e.handle(tx, e.message, e.envelope);
    });
  }

  return { handler: (message) => consume([message]), batchHandler: consume };
}
