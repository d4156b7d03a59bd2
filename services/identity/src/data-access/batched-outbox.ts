// Many outbox rows in one statement: a transaction proxy that keeps the rows enqueueEvent writes
// (packages/events outbox.ts, one insert per event) and writes them with one multi-row insert at
// flush(). For the roster import, where a batch publishes hundreds of events: one round trip
// instead of one per event. Any other statement goes to the transaction as it is.
import type { Tx } from './prisma.ts';

const OUTBOX_INSERT = /^\s*insert into outbox \(id, topic, key, type, tenant_id, payload, headers\) values/i;

export interface BatchedOutbox {
  /** The transaction to hand to event writers. */
  tx: Tx;
  /** Writes the kept rows (call before the transaction ends). */
  flush(): Promise<void>;
}

export function batchedOutbox(tx: Tx): BatchedOutbox {
  const rows: unknown[][] = [];
  const proxy = new Proxy(tx, {
    get(target, prop, receiver) {
      if (prop === '$executeRawUnsafe')
        return async (query: string, ...values: unknown[]) => {
          if (OUTBOX_INSERT.test(query) && values.length === 7) {
            rows.push(values);
            return 1;
          }
          return target.$executeRawUnsafe(query, ...values);
        };
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
  return {
    tx: proxy,
    async flush() {
      if (!rows.length) return;
      const column = (i: number) => rows.map((r) => r[i]);
      // clock_timestamp() per row (the column's default) keeps the rows in the order written.
      await tx.$executeRawUnsafe(
        `insert into outbox (id, topic, key, type, tenant_id, payload, headers)
         select * from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bytea[], $7::jsonb[])`,
        column(0),
        column(1),
        column(2),
        column(3),
        column(4),
        column(5),
        column(6),
      );
      rows.length = 0;
    },
  };
}
