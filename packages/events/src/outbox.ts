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
