// Writing an event: one outbox row in the caller's transaction, published later by OutboxRelay.
import { randomUUID } from 'node:crypto';
import { toBinary, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import type { SqlExecutor } from './db.ts';
import { buildHeaders } from './envelope.ts';
import { topicFor } from './registry.ts';

export interface EnqueueEventInput<Desc extends DescMessage> {
  /** The producing service, sent as `ce_source`, e.g. `identity`. */
  source: string;
  /** The generated schema, e.g. `UserRegisteredSchema`. */
  schema: Desc;
  /** The event, made with `create(schema, {...})`. */
  message: MessageShape<Desc>;
  /** The aggregate id: events with one key are delivered in order. */
  key: string;
  tenantId: string;
}

/** Writes one outbox row inside the caller's transaction and returns the event id (`ce_id`). */
export async function enqueueEvent<Desc extends DescMessage>(
  tx: SqlExecutor,
  input: EnqueueEventInput<Desc>,
): Promise<string> {
  const id = randomUUID();
  const type = input.schema.typeName;
  const headers = buildHeaders({ id, type, source: input.source, time: new Date(), tenantId: input.tenantId });
  const payload = Buffer.from(toBinary(input.schema, input.message));
  await tx.$executeRawUnsafe(
    'insert into outbox (id, topic, key, type, tenant_id, payload, headers) values ($1::uuid, $2, $3, $4, $5, $6, $7::jsonb)',
    id,
    topicFor(input.schema),
    input.key,
    type,
    input.tenantId,
    payload,
    JSON.stringify(headers),
  );
  return id;
}

/** The outbox `type` of a tombstone: a row whose key is published with a null value. */
export const TOMBSTONE_TYPE = 'tombstone';

/**
 * A header in the outbox row (never sent) asking the relay to delete the row as soon as the bus
 * acknowledged it, instead of keeping it for the outbox retention: rows naming an erased person.
 */
export const ERASE_AFTER_PUBLISH_HEADER = 'x-checkpoint-erase-after-publish';

/**
 * Writes a tombstone for `key` on the topic of `schema`: the Kafka message has the key and a null
 * value, so that a compacted topic forgets every earlier event of that key and consumers skip it.
 * The payload column holds zero bytes (the outbox keeps its NOT NULL column; `type` marks it),
 * and the row is deleted once published.
 */
export async function enqueueTombstone(
  tx: SqlExecutor,
  input: { schema: DescMessage; key: string; tenantId: string },
): Promise<string> {
  const id = randomUUID();
  await tx.$executeRawUnsafe(
    'insert into outbox (id, topic, key, type, tenant_id, payload, headers) values ($1::uuid, $2, $3, $4, $5, $6, $7::jsonb)',
    id,
    topicFor(input.schema),
    input.key,
    TOMBSTONE_TYPE,
    input.tenantId,
    Buffer.alloc(0),
    JSON.stringify({ [ERASE_AFTER_PUBLISH_HEADER]: '1' }),
  );
  return id;
}

/**
 * After erasing a person or a tenant: deletes the published outbox rows that name `subject` (as
 * key, tenant, or anywhere in the protobuf payload, where ids are plain UTF-8 strings) and marks
 * the unpublished ones to be deleted right after publishing. Returns the rows deleted.
 */
export async function markOutboxForErasure(tx: SqlExecutor, subject: string): Promise<number> {
  const names = `(key = $1 or tenant_id = $1 or position(convert_to($1, 'UTF8') in payload) > 0)`;
  const deleted = await tx.$executeRawUnsafe(`delete from outbox where published_at is not null and ${names}`, subject);
  await tx.$executeRawUnsafe(
    `update outbox set headers = headers || jsonb_build_object($2::text, '1') where published_at is null and ${names}`,
    subject,
    ERASE_AFTER_PUBLISH_HEADER,
  );
  return deleted;
}
