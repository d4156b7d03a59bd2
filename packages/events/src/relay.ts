// Publishes committed outbox rows to the bus, in order, marking each published only once the bus
// acknowledged it. Woken by LISTEN/NOTIFY, with polling as the fallback (PollingLoop).
import type pg from 'pg';
import { errorText, silentLogger, type Bus, type BusMessage, type Logger } from './bus.ts';
import { deleteInBatches, sqlExecutor } from './db.ts';
import { ERASE_AFTER_PUBLISH_HEADER, TOMBSTONE_TYPE } from './outbox.ts';
import { PollingLoop } from './polling-loop.ts';

export interface OutboxRelayOptions {
  /** The service's pool (search_path = its schema). The relay holds one connection for LISTEN. */
  pool: pg.Pool;
  bus: Bus;
  logger?: Logger;
  /** Rows per batch. Default 100. */
  batchSize?: number;
  /** Poll interval when no NOTIFY arrives. Default 1000 ms. */
  pollIntervalMs?: number;
  /** Upper bound of the backoff after failed publishes. Default 30 s. */
  maxBackoffMs?: number;
  /** How long stop() waits for the batch in flight. Default 10 s. */
  stopTimeoutMs?: number;
  /** Published rows older than this are deleted. Default 7 days. */
  retentionMs?: number;
  /**
   * Inbox entries (events this schema's consumers handled) older than this are deleted; 0 keeps
   * them. Must exceed the longest an event stays redeliverable (the topics' retention plus a
   * segment's age), or an event delivered again after that would take effect twice. A function is
   * asked at each cleanup (e.g. to check the topics' settings). Default 0.
   */
  inboxRetentionMs?: number | (() => Promise<number>);
  /** A publish that has not been acknowledged after this long counts as failed. Default 30 s. */
  publishTimeoutMs?: number;
  /**
   * Most payload bytes per batch (at least one row always goes): Kafka refuses a record batch of one
   * partition above its 1 MB limit, and large events (export parts) share a key. Default 900 KB.
   */
  maxBatchBytes?: number;
  /** Counts what the relay does (e.g. into Prometheus counters): rows acknowledged, batches failed. */
  metrics?: RelayMetrics;
}

export interface RelayMetrics {
  published(count: number): void;
  failed(): void;
}

interface OutboxRow {
  id: string;
  topic: string;
  key: string;
  type: string;
  payload: Buffer;
  headers: Record<string, string>;
}

const CLEANUP_EVERY_MS = 60_000;

export class OutboxRelay {
  private readonly pool: pg.Pool;
  private readonly bus: Bus;
  private readonly logger: Logger;
  private readonly batchSize: number;
  private readonly pollIntervalMs: number;
  private readonly maxBackoffMs: number;
  private readonly stopTimeoutMs: number;
  private readonly retentionMs: number;
  private readonly inboxRetentionMs: number | (() => Promise<number>);
  private readonly publishTimeoutMs: number;
  private readonly maxBatchBytes: number;
  private readonly metrics: RelayMetrics | undefined;
  /** The last batch was cut by maxBatchBytes: more rows wait. */
  private cut = false;
  private readonly loop: PollingLoop;
  private lastCleanup = 0;
  private cleaning: Promise<void> | undefined;

  constructor(options: OutboxRelayOptions) {
    this.pool = options.pool;
    this.bus = options.bus;
    this.logger = options.logger ?? silentLogger;
    this.batchSize = options.batchSize ?? 100;
    this.pollIntervalMs = options.pollIntervalMs ?? 1000;
    this.maxBackoffMs = options.maxBackoffMs ?? 30_000;
    this.stopTimeoutMs = options.stopTimeoutMs ?? 10_000;
    this.retentionMs = options.retentionMs ?? 7 * 24 * 3600_000;
    this.inboxRetentionMs = options.inboxRetentionMs ?? 0;
    this.publishTimeoutMs = options.publishTimeoutMs ?? 30_000;
    this.maxBatchBytes = options.maxBatchBytes ?? 900_000;
    this.metrics = options.metrics;
    this.loop = new PollingLoop({
      name: 'outbox relay',
      pass: () => this.pass(),
      intervalMs: this.pollIntervalMs,
      backoffMs: (failures) => Math.min(this.pollIntervalMs * 2 ** (failures - 1), this.maxBackoffMs),
      onError: (error, failures) => {
        this.metrics?.failed();
        this.logger.warn({ err: errorText(error), failures }, 'outbox relay: publish failed, will retry');
      },
      listen: { pool: this.pool, channel: 'outbox' },
      stopTimeoutMs: this.stopTimeoutMs,
      settle: () => this.cleaning,
      logger: this.logger,
    });
  }

  /** Resolves once LISTEN is set up (or failed: then it polls). */
  start(): Promise<void> {
    return this.loop.start();
  }

  /** Stops polling and waits (bounded) for the batch in flight. */
  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** Publishes one batch now; returns how many rows went out. */
  async publishBatch(): Promise<number> {
    // Every schema's outbox trigger notifies the one channel, so each insert anywhere wakes every
    // service's relay (and the poll wakes it too): one short statement finds that nothing waits
    // here, where the transaction below takes four round trips.
    if (!(await this.anyUnpublished())) return 0;
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query('begin');
      // One publisher per schema at a time: SKIP LOCKED alone would let two relays publish
      // neighbouring rows of one key out of order. The lock goes with the transaction: a replica
      // that dies hands over when Postgres sees its connection close, and one cut off from
      // Postgres (no close ever arrives) when the server ends its session after the publish
      // bound (docs/scale-out.md).
      const lock = await client.query<{ locked: boolean }>(
        "select set_config('idle_in_transaction_session_timeout', $1, true), pg_try_advisory_xact_lock(hashtext('checkpoint.outbox:' || current_schema())) as locked",
        [String(this.publishTimeoutMs + 10_000)],
      );
      if (!lock.rows[0]?.locked) {
        await client.query('commit');
        return 0;
      }
      const { rows: fetched } = await client.query<OutboxRow>(
        'select id, topic, key, type, payload, headers from outbox where published_at is null order by created_at, id limit $1 for update skip locked',
        [this.batchSize],
      );
      // A prefix of the rows, within maxBatchBytes (order holds: the rest go in the next batch).
      let bytes = 0;
      const rows = fetched.filter((row, i) => (bytes += row.payload.length) <= this.maxBatchBytes || i === 0);
      this.cut = rows.length < fetched.length;
      if (rows.length === 0) {
        await client.query('commit');
        return 0;
      }
      const ids = rows.map((row) => row.id);
      const erase = rows.filter((row) => row.headers[ERASE_AFTER_PUBLISH_HEADER] !== undefined).map((row) => row.id);
      const messages: BusMessage[] = rows.map((row) => {
        const headers = Object.fromEntries(
          Object.entries(row.headers).filter(([name]) => name !== ERASE_AFTER_PUBLISH_HEADER),
        );
        return row.type === TOMBSTONE_TYPE
          ? { topic: row.topic, key: row.key, value: new Uint8Array(), headers: {}, tombstone: true }
          : { topic: row.topic, key: row.key, value: new Uint8Array(row.payload), headers };
      });
      try {
        await withTimeout(this.bus.publish(messages), this.publishTimeoutMs);
      } catch (error) {
        await client.query('update outbox set attempts = attempts + 1, last_error = $2 where id = any($1::uuid[])', [
          ids,
          errorText(error),
        ]);
        await client.query('commit');
        throw error;
      }
      await client.query(
        'update outbox set published_at = clock_timestamp(), attempts = attempts + 1, last_error = null where id = any($1::uuid[])',
        [ids],
      );
      // Rows naming an erased person or tenant (and tombstones) do not wait for the retention.
      if (erase.length > 0) await client.query('delete from outbox where id = any($1::uuid[])', [erase]);
      await client.query('commit');
      return rows.length;
    } catch (error) {
      await client.query('rollback').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }

  private async anyUnpublished(): Promise<boolean> {
    const { rows } = await this.pool.query<{ waiting: boolean }>(
      'select exists (select 1 from outbox where published_at is null) as waiting',
    );
    return rows[0]?.waiting === true;
  }

  /** One pass of the loop: a batch; true when more rows wait. */
  private async pass(): Promise<boolean> {
    const published = await this.publishBatch();
    if (published > 0) this.metrics?.published(published);
    if (this.loop.failures > 0) this.logger.info({ failures: this.loop.failures }, 'outbox relay: publishing again');
    this.cleanup();
    return published === this.batchSize || (published > 0 && this.cut);
  }

  /**
   * Once a minute, beside the publishing (a backlog takes many batches), deletes published rows and
   * inbox entries past their retention.
   */
  private cleanup(): void {
    if (this.cleaning || Date.now() - this.lastCleanup < CLEANUP_EVERY_MS) return;
    this.lastCleanup = Date.now();
    const db = sqlExecutor(this.pool);
    const running = () => this.loop.running;
    const older = (column: string) => `${column} < now() - $1 * interval '1 millisecond'`;
    this.cleaning = (async () => {
      await deleteInBatches(db, 'outbox', older('published_at'), [this.retentionMs], { running });
      const inboxMs =
        typeof this.inboxRetentionMs === 'function' ? await this.inboxRetentionMs() : this.inboxRetentionMs;
      if (inboxMs > 0) await deleteInBatches(db, 'inbox', older('processed_at'), [inboxMs], { running });
    })()
      .catch((error: unknown) => this.logger.warn({ err: errorText(error) }, 'outbox relay: cleanup failed'))
      .finally(() => (this.cleaning = undefined));
  }
}

/** Rejects when the promise has not settled in time (the rows stay and go out again: at-least-once). */
async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`publish not acknowledged within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
