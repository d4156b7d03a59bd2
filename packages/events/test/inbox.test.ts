// The inbox consumer against real Postgres: a batch runs in one transaction, each event once.
import { randomUUID } from 'node:crypto';
import { startPostgres, type PostgresHandle } from '@checkpoint/testkit';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHeaders, create, toBinary, topicFor, UserRegisteredSchema, type BusMessage } from '../src/index.ts';
import { effectsConsumer } from './fixtures/effects.ts';
import { count, createServiceSchema, pgRunner, schemaPool, type PgRunner } from './helpers.ts';

let postgres: PostgresHandle;
let pool: pg.Pool;
let db: PgRunner;

beforeAll(async () => {
  postgres = await startPostgres();
  await createServiceSchema(postgres.url, 'inbox_test');
  pool = schemaPool(postgres.url, 'inbox_test');
  db = pgRunner(pool);
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await postgres?.stop();
});

function userRegistered(key: string, seq: number, email = `${key}@example.test`): BusMessage {
  const id = randomUUID();
  const headers = buildHeaders({
    id,
    type: UserRegisteredSchema.typeName,
    source: 'identity',
    time: new Date(),
    tenantId: 't',
  });
  const message = create(UserRegisteredSchema, {
    userId: key,
    tenantId: 't',
    email,
    firstName: 'T',
    lastName: String(seq),
  });
  return { topic: topicFor(UserRegisteredSchema), key, value: toBinary(UserRegisteredSchema, message), headers };
}

const effects = (groupId: string) =>
  db.$queryRawUnsafe<{ key: string; seq: number }[]>(
    'select key, seq from effects where group_id = $1 order by id',
    groupId,
  );

describe('inbox consumer', () => {
  it('when a batch holds new, repeated and already handled events, then each effect happens once, in order', async () => {
    const group = 'batch-once';
    const consumer = effectsConsumer(db, group);
    const [a0, a1, b0, a2] = [
      userRegistered('a', 0),
      userRegistered('a', 1),
      userRegistered('b', 0),
      userRegistered('a', 2),
    ];
    await consumer.handler(a1!);

    await consumer.batchHandler([a0!, a1!, b0!, a0!, a2!]);

    expect(await effects(group)).toEqual([
      { key: 'a', seq: 1 },
      { key: 'a', seq: 0 },
      { key: 'b', seq: 0 },
      { key: 'a', seq: 2 },
    ]);
    expect(await count(db, 'select count(*) as n from inbox where consumer_group = $1', group)).toBe(4);
  });

  it('when one event of a batch fails, then nothing of the batch stays and each event can be handled again', async () => {
    const group = 'batch-atomic';
    const consumer = effectsConsumer(db, group);
    const batch = [userRegistered('a', 0), userRegistered('a', 1, 'poison@example.test'), userRegistered('a', 2)];

    await expect(consumer.batchHandler(batch)).rejects.toThrow('poison message for a');

    expect(await effects(group)).toEqual([]);
    expect(await count(db, 'select count(*) as n from inbox where consumer_group = $1', group)).toBe(0);
    await consumer.handler(batch[0]!);
    await consumer.handler(batch[2]!);
    expect(await effects(group)).toEqual([
      { key: 'a', seq: 0 },
      { key: 'a', seq: 2 },
    ]);
  });
});
