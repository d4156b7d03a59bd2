// One event as the bus delivers it (topic, key, protobuf value, CloudEvents headers), for tests
// that hand a consumer another service's event.
import { randomUUID } from 'node:crypto';
import type { DescMessage, MessageInitShape } from '@bufbuild/protobuf';
import { buildHeaders, create, toBinary, topicFor, type BusMessage } from '@checkpoint/events';

export function eventMessage<S extends DescMessage>(
  schema: S,
  init: MessageInitShape<S>,
  envelope: { key: string; tenantId: string; id?: string },
): BusMessage {
  return {
    topic: topicFor(schema),
    key: envelope.key,
    value: toBinary(schema, create(schema, init)),
    headers: buildHeaders({
      id: envelope.id ?? randomUUID(),
      type: schema.typeName,
      source: 'test',
      time: new Date(),
      tenantId: envelope.tenantId,
    }),
  };
}
