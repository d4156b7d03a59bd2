// The Kafka transport, and the only file that imports kafkajs. Idempotent producer; consumer
// groups that commit offsets only after the handler (and so its DB transaction) finished; a
// message that keeps failing goes to `<topic>.dlq` and the partition moves on.
import type { ConnectionOptions } from 'node:tls';
import type { Span } from '@opentelemetry/api';
import {
  Kafka,
  logLevel,
  Partitioners,
  type Admin,
  type Consumer,
  type IHeaders,
  type KafkaConfig,
  type KafkaMessage,
  type LogEntry,
  type Producer,
  type SASLOptions,
} from 'kafkajs';
import {
  defaultRetryPolicy,
  errorText,
  handleWithRetry,
  logRetry,
  silentLogger,
  sleep,
  type Bus,
  type BusMessage,
  type Logger,
  type RetryPolicy,
  type SubscribeOptions,
} from './bus.ts';
import { endSpans, runInContext, startProcessSpan, startSendSpan } from './tracing.ts';

export interface KafkaBusOptions {
  /** Bootstrap servers, comma-separated or a list. */
  brokers: string | string[];
  clientId: string;
  /**
   * TLS to the brokers: `true` verifies their certificates against the system's CAs; an object
   * gives Node's TLS options, e.g. `{ ca }` for a private CA (Strimzi's cluster CA). Default: plain.
   */
  tls?: boolean | ConnectionOptions;
  /** SASL authentication (SCRAM or PLAIN). Default: none. */
  sasl?: KafkaSaslOptions;
  logger?: Logger;
  /** Prepended to every topic name (also DLQs), e.g. to share one cluster between environments. */
  topicPrefix?: string;
  /** Partitions of the topics this bus creates. Default 3. */
  numPartitions?: number;
  /** Replication of the topics this bus creates. Default: the broker's default. */
  replicationFactor?: number;
  /** Handler retries before a message goes to the DLQ. */
  retry?: Partial<RetryPolicy>;
  /** Partitions one consumer handles at the same time (order holds within each). Default 1. */
  partitionsConsumedConcurrently?: number;
  /** A consumer that stops heartbeating leaves its group after this long. Default 30 s. */
  sessionTimeoutMs?: number;
  /** Most messages given to a subscription's `batchHandler` at once. Default 100. */
  maxBatch?: number;
  /** Called for each message set aside in `<topic>.dlq` (e.g. to count it in a metric). */
  onDeadLetter?: (groupId: string, topic: string) => void;
}

/** SASL credentials of the Kafka client. */
export interface KafkaSaslOptions {
  mechanism: 'scram-sha-512' | 'scram-sha-256' | 'plain';
  username: string;
  password: string;
}

/** Consumer lag per partition and dead-letter topic sizes, for metrics (see `KafkaBus.eventBacklog`). */
export interface EventBacklog {
  /** Latest offset minus the group's committed offset, per partition of each subscribed topic. */
  lag: { groupId: string; topic: string; partition: number; lag: number }[];
  /** Messages kept in the dead-letter topic of each subscribed topic. */
  deadLetters: { topic: string; messages: number }[];
}

export const DLQ_ERROR_HEADER = 'dlq-error';
export const DLQ_GROUP_HEADER = 'dlq-group-id';

// Short, bounded retries: the relay keeps unpublished rows and retries with its own backoff, and
// a crashed consumer restarts within seconds once the broker is back.
const CLIENT_RETRY = { retries: 3, initialRetryTime: 200, maxRetryTime: 2000 };

export const dlqTopic = (topic: string) => `${topic}.dlq`;

// kafkajs' ConfigResourceTypes.TOPIC: its enum is not among the names Node's ESM loader finds in the CommonJS package.
const TOPIC_RESOURCE = 2;

// How long stop() waits for a consumer still joining its group before it disconnects it again.
const STOP_JOIN_WAIT_MS = 10_000;
// How long stop() waits for a disconnect: one still connecting to a broker that takes connections
// and never answers waits for the client's request timeout (30 s). Nothing is lost by not waiting:
// the relays stop first, and an event not acknowledged stays in its outbox.
const STOP_DISCONNECT_WAIT_MS = 5_000;

// A consumer KafkaJS leaves down after a crash is started again after 1 s, doubling to 30 s.
const RESTART_INITIAL_MS = 1000;
const RESTART_MAX_MS = 30_000;

interface ConsumerEntry {
  /** Absent only while the first one is made; replaced when a crashed one is started again. */
  consumer?: Consumer;
  joined: boolean;
  topics: string[];
  /** Crashes in a row (the restart backoff): counted afresh once a consumer stayed joined RESTART_MAX_MS. */
  crashes: number;
  /** When the current consumer first joined its group (rebalances join again). */
  joinedAt?: number;
  /** The consumer being made, joined and run (stop() waits for it, then leaves the group). */
  starting?: Promise<void>;
}

/**
 * The KafkaJS client settings of a bus: brokers, timeouts, logging, and the connection's security
 * (TLS, SASL), passed as given; without `tls` and `sasl` the connection is plain and anonymous.
 */
export function kafkaClientConfig(options: KafkaBusOptions, logger: Logger = silentLogger): KafkaConfig {
  return {
    clientId: options.clientId,
    brokers: typeof options.brokers === 'string' ? options.brokers.split(',').map((b) => b.trim()) : options.brokers,
    connectionTimeout: 3000,
    retry: CLIENT_RETRY,
    ...(options.tls ? { ssl: options.tls } : {}),
    // One object per mechanism in KafkaJS' types; the same three fields for each of these.
    ...(options.sasl ? { sasl: { ...options.sasl } as SASLOptions } : {}),
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log }: LogEntry) => {
        const { message, ...extra } = log;
        if (level === logLevel.ERROR) logger.error(extra, `kafka: ${message}`);
        else logger.warn(extra, `kafka: ${message}`);
      },
  };
}

export class KafkaBus implements Bus {
  private readonly kafka: Kafka;
  private readonly logger: Logger;
  private readonly prefix: string;
  private readonly numPartitions: number;
  private readonly replicationFactor: number;
  private readonly retry: RetryPolicy;
  private readonly concurrency: number;
  private readonly sessionTimeoutMs: number;
  private readonly maxBatch: number;
  private readonly producer: Producer;
  private readonly admin: Admin;
  private readonly consumers = new Map<string, ConsumerEntry>();
  private readonly restarts = new Set<NodeJS.Timeout>();
  private readonly onDeadLetter: ((groupId: string, topic: string) => void) | undefined;
  private backlogInFlight: Promise<EventBacklog> | undefined;
  private readonly knownTopics = new Set<string>();
  private producerConnected: Promise<void> | undefined;
  private adminConnected: Promise<void> | undefined;
  private producerHealthy = false;
  private stopped = false;

  constructor(options: KafkaBusOptions) {
    this.logger = options.logger ?? silentLogger;
    this.prefix = options.topicPrefix ?? '';
    this.numPartitions = options.numPartitions ?? 3;
    this.replicationFactor = options.replicationFactor ?? -1;
    this.retry = { ...defaultRetryPolicy, ...options.retry };
    this.concurrency = options.partitionsConsumedConcurrently ?? 1;
    this.maxBatch = Math.max(1, options.maxBatch ?? 100);
    this.sessionTimeoutMs = options.sessionTimeoutMs ?? 30_000;
    this.onDeadLetter = options.onDeadLetter;
    this.kafka = new Kafka(kafkaClientConfig(options, this.logger));
    this.producer = this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: Partitioners.DefaultPartitioner,
      retry: { retries: 2, initialRetryTime: 200, maxRetryTime: 2000 },
    });
    this.producer.on(this.producer.events.DISCONNECT, () => {
      this.producerConnected = undefined;
      this.producerHealthy = false;
    });
    this.admin = this.kafka.admin({ retry: { retries: 2, initialRetryTime: 200, maxRetryTime: 2000 } });
    this.admin.on(this.admin.events.DISCONNECT, () => {
      this.adminConnected = undefined;
    });
  }

  /** Connects the producer now rather than on the first publish. */
  async connect(): Promise<void> {
    await this.connectProducer();
  }

  async publish(messages: BusMessage[]): Promise<void> {
    if (this.stopped) throw new Error('kafka bus stopped');
    if (messages.length === 0) return;
    const byTopic = new Map<string, { key: string; value: Buffer | null; headers: IHeaders }[]>();
    // One `send` span per message, child of the request that wrote it (its traceparent header).
    const spans: Span[] = [];
    for (const message of messages) {
      const topic = this.prefix + message.topic;
      const list = byTopic.get(topic) ?? [];
      // A tombstone is a null value: a compacted topic then forgets the key's earlier events.
      const value = message.tombstone ? null : Buffer.from(message.value);
      const { span, headers } = startSendSpan('kafka', message, topic);
      spans.push(span);
      list.push({ key: message.key, value, headers });
      byTopic.set(topic, list);
    }
    try {
      await this.connectProducer();
      await this.ensureTopics([...byTopic.keys()]);
      await this.producer.sendBatch({
        acks: -1,
        topicMessages: [...byTopic].map(([topic, list]) => ({ topic, messages: list })),
      });
      this.producerHealthy = true;
      endSpans(spans);
    } catch (error) {
      this.producerHealthy = false;
      endSpans(spans, error);
      throw error;
    }
  }

  async subscribe(options: SubscribeOptions): Promise<void> {
    const { groupId, topics } = options;
    if (this.stopped) throw new Error('kafka bus stopped');
    if (this.consumers.has(groupId)) throw new Error(`group ${groupId} already subscribed on this bus`);
    const fullTopics = topics.map((topic) => this.prefix + topic);
    await this.ensureTopics([...fullTopics, ...fullTopics.map(dlqTopic)]);
    // stop() may have come meanwhile (a subscription retried in the background): it would not see this one.
    if (this.stopped) throw new Error('kafka bus stopped');

    const entry: ConsumerEntry = { joined: false, topics: fullTopics, crashes: 0 };
    this.consumers.set(groupId, entry);
    try {
      await this.track(entry, this.startConsumer(entry, options));
    } catch (error) {
      // Nothing half-made stays: the caller may subscribe the group again (e.g. once Kafka is back).
      this.consumers.delete(groupId);
      throw error;
    }
  }

  /** Makes the entry's consumer, joins its group and runs it. */
  private async startConsumer(entry: ConsumerEntry, subscription: SubscribeOptions): Promise<void> {
    const { groupId, handler, batchHandler } = subscription;
    const consumer = this.kafka.consumer({
      groupId,
      allowAutoTopicCreation: false,
      sessionTimeout: this.sessionTimeoutMs,
      heartbeatInterval: Math.min(3000, this.sessionTimeoutMs / 3),
      // Bounds how long a fetch (and so stop()) may wait on an idle topic.
      maxWaitTimeInMs: 1000,
      // A consumer that crashed (e.g. broker down) restarts until the bus is stopped; without this
      // guard a restart scheduled before stop() would bring it back.
      retry: { ...CLIENT_RETRY, restartOnFailure: async () => !this.stopped },
    });
    entry.consumer = consumer;
    entry.joined = false;
    consumer.on(consumer.events.GROUP_JOIN, () => {
      entry.joined = true;
      // The first join since it was started (later rebalances join again).
      entry.joinedAt ??= Date.now();
    });
    consumer.on(consumer.events.CRASH, (event) => {
      entry.joined = false;
      this.logger.warn(
        { groupId, err: errorText(event.payload.error), restart: event.payload.restart },
        'kafka consumer crashed',
      );
      // KafkaJS restarts only after an error it classes as retriable; after any other the consumer
      // is down for good (e.g. "Failed to find group coordinator" while a broker stops).
      if (!event.payload.restart) this.restartLater(entry, subscription);
    });
    consumer.on(consumer.events.STOP, () => (entry.joined = false));

    try {
      await consumer.connect();
      await consumer.subscribe({ topics: entry.topics, fromBeginning: true });
      await this.run(consumer, groupId, handler, batchHandler);
    } catch (error) {
      await consumer.disconnect().catch(() => {});
      throw error;
    }
    // stop() came while it was joining and had nothing to wait for yet (a restart's timer fired).
    if (this.stopped) await consumer.disconnect().catch(() => {});
  }

  /** Keeps `starting` on the entry while it runs, so that stop() can wait for it. */
  private track(entry: ConsumerEntry, starting: Promise<void>): Promise<void> {
    entry.starting = starting;
    return starting.finally(() => {
      if (entry.starting === starting) entry.starting = undefined;
    });
  }

  /**
   * Starts a crashed consumer again after 1 s, doubling to 30 s while it keeps crashing or
   * cannot join. The entry stays in `consumers` (not joined), so the bus reports not ready meanwhile.
   */
  private restartLater(entry: ConsumerEntry, subscription: SubscribeOptions): void {
    if (this.stopped) return;
    // A consumer that crashes soon after joining (an event it cannot get past) keeps backing off.
    if (entry.joinedAt !== undefined && Date.now() - entry.joinedAt > RESTART_MAX_MS) entry.crashes = 0;
    entry.joinedAt = undefined;
    entry.crashes += 1;
    const delay = Math.min(RESTART_MAX_MS, RESTART_INITIAL_MS * 2 ** (entry.crashes - 1));
    const timer = setTimeout(() => {
      this.restarts.delete(timer);
      if (this.stopped) return;
      this.logger.info({ groupId: subscription.groupId, attempt: entry.crashes }, 'restarting kafka consumer');
      this.track(entry, this.startConsumer(entry, subscription)).catch((error: unknown) => {
        this.logger.warn({ groupId: subscription.groupId, err: errorText(error) }, 'kafka consumer restart failed');
        this.restartLater(entry, subscription);
      });
    }, delay);
    timer.unref();
    this.restarts.add(timer);
  }

  private async run(
    consumer: Consumer,
    groupId: string,
    handler: SubscribeOptions['handler'],
    batchHandler: SubscribeOptions['batchHandler'],
  ): Promise<void> {
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.concurrency,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
        let next: string | undefined;
        const done = (raw: KafkaMessage) => {
          resolveOffset(raw.offset);
          next = (BigInt(raw.offset) + 1n).toString();
        };
        const processSpan = (message: BusMessage, raw: KafkaMessage) =>
          startProcessSpan('kafka', message, batch.topic, {
            'messaging.consumer.group.name': groupId,
            'messaging.destination.partition.id': String(batch.partition),
            'messaging.kafka.offset': Number(raw.offset),
          });
        const one = async (raw: KafkaMessage) => {
          const message = this.toBusMessage(batch.topic, raw);
          const log = logRetry(this.logger, groupId, message);
          // The handler runs in the `process` span: its queries and the events it writes continue the trace.
          const { span, context } = processSpan(message, raw);
          const result = await runInContext(context, () =>
            handleWithRetry(handler, message, this.retry, (error, attempt) => {
              log(error, attempt);
              void heartbeat().catch(() => {});
            }),
          );
          endSpans([span], result?.failed);
          if (result) await this.deadLetter(groupId, batch.topic, raw, result.failed);
          done(raw);
          await heartbeat();
        };
        try {
          // What arrived together is handled together (one transaction for an inbox consumer):
          // under load the batches grow by themselves, idle there is no wait.
          for (let from = 0; from < batch.messages.length; from += this.maxBatch) {
            if (!isRunning() || isStale()) break;
            const chunk = batch.messages.slice(from, from + this.maxBatch);
            if (batchHandler && chunk.length > 1) {
              const messages = chunk.map((raw) => this.toBusMessage(batch.topic, raw));
              // A `process` span per message, each in its own trace; the batch's one transaction
              // runs in the first one's context.
              const started = messages.map((message, i) => processSpan(message, chunk[i]!));
              try {
                await runInContext(started[0]!.context, () => batchHandler(messages));
                endSpans(started.map((s) => s.span));
                chunk.forEach(done);
                await heartbeat();
                continue;
              } catch (error) {
                endSpans(
                  started.map((s) => s.span),
                  error,
                );
                this.logger.warn(
                  { groupId, topic: batch.topic, messages: chunk.length, err: errorText(error) },
                  'event batch failed, handling its events one by one',
                );
              }
            }
            for (const raw of chunk) {
              if (!isRunning() || isStale()) break;
              await one(raw);
            }
          }
        } finally {
          if (next !== undefined)
            await consumer.commitOffsets([{ topic: batch.topic, partition: batch.partition, offset: next }]);
        }
      },
    });
  }

  /**
   * Whether the producer works and every consumer group is joined: event health, reported as a
   * metric (checkpoint_event_bus_ready), never a reason to stop serving requests.
   */
  isReady(): boolean {
    if (this.stopped || !this.producerHealthy) return false;
    return [...this.consumers.values()].every((entry) => entry.joined);
  }

  /**
   * Each consumer group's lag per partition (latest offset minus committed offset, read with the
   * admin client, so that a stuck or dead consumer shows too) and the size of each dead-letter
   * topic. Bounded by `timeoutMs`; concurrent calls share one round of requests.
   */
  async eventBacklog(timeoutMs = 2_000): Promise<EventBacklog> {
    if (this.stopped || this.consumers.size === 0) return { lag: [], deadLetters: [] };
    this.backlogInFlight ??= this.readBacklog().finally(() => (this.backlogInFlight = undefined));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`kafka offsets not read within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([this.backlogInFlight, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async readBacklog(): Promise<EventBacklog> {
    await this.connectAdmin();
    const topics = [...new Set([...this.consumers.values()].flatMap((entry) => entry.topics))];
    const latest = new Map<string, Map<number, { high: bigint; low: bigint }>>();
    await Promise.all(
      [...topics, ...topics.map(dlqTopic)].map(async (topic) => {
        const offsets = await this.admin.fetchTopicOffsets(topic);
        latest.set(topic, new Map(offsets.map((o) => [o.partition, { high: BigInt(o.high), low: BigInt(o.low) }])));
      }),
    );
    const lag: EventBacklog['lag'] = [];
    for (const [groupId, entry] of this.consumers) {
      const committed = await this.admin.fetchOffsets({ groupId, topics: entry.topics });
      for (const { topic, partitions } of committed) {
        for (const { partition, offset } of partitions) {
          const range = latest.get(topic)?.get(partition);
          if (!range) continue;
          // -1: nothing committed yet; the group starts from the beginning (fromBeginning: true).
          const from = BigInt(offset) < 0n ? range.low : BigInt(offset);
          const behind = range.high - from;
          lag.push({ groupId, topic: this.unprefixed(topic), partition, lag: Number(behind > 0n ? behind : 0n) });
        }
      }
    }
    const deadLetters = topics.map((topic) => {
      let messages = 0n;
      for (const { high, low } of latest.get(dlqTopic(topic))?.values() ?? []) messages += high - low;
      return { topic: this.unprefixed(topic), messages: Number(messages) };
    });
    return { lag, deadLetters };
  }

  private unprefixed(topic: string): string {
    return topic.startsWith(this.prefix) ? topic.slice(this.prefix.length) : topic;
  }

  /** Leaves the consumer groups (after the batch in flight) and disconnects. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const timer of this.restarts) clearTimeout(timer);
    this.restarts.clear();
    const entries = [...this.consumers.values()];
    await within(
      STOP_DISCONNECT_WAIT_MS,
      entries.map(({ consumer }) => consumer?.disconnect()),
    );
    // A consumer still joining when the first disconnect came may join after it: once it is done,
    // it leaves again, so that no member of the group outlives the bus (holding its partitions).
    await within(
      STOP_JOIN_WAIT_MS,
      entries.map((entry) => entry.starting),
    );
    await within(
      STOP_DISCONNECT_WAIT_MS,
      entries.map(({ consumer }) => consumer?.disconnect()),
    );
    await within(STOP_DISCONNECT_WAIT_MS, [this.producer.disconnect(), this.admin.disconnect()]);
  }

  private connectProducer(): Promise<void> {
    this.producerConnected ??= this.producer.connect().then(
      () => {
        this.producerHealthy = true;
      },
      (error: unknown) => {
        this.producerConnected = undefined;
        throw error;
      },
    );
    return this.producerConnected;
  }

  private connectAdmin(): Promise<void> {
    this.adminConnected ??= this.admin.connect().catch((error: unknown) => {
      this.adminConnected = undefined;
      throw error;
    });
    return this.adminConnected;
  }

  /**
   * The longest the broker may deliver an event of `topics` again, in ms (Infinity: for ever):
   * retention.ms plus segment.ms, since a record goes only with its whole segment; a compacted
   * topic, or one without a time limit, keeps records for ever. What a consumer's duplicate guard
   * (the inbox) must remember at least.
   */
  async redeliveryWindowMs(topics: string[]): Promise<number> {
    if (topics.length === 0) return 0;
    await this.connectAdmin();
    const { resources } = await this.admin.describeConfigs({
      includeSynonyms: false,
      resources: topics.map((topic) => ({
        type: TOPIC_RESOURCE,
        name: this.prefix + topic,
        configNames: ['cleanup.policy', 'retention.ms', 'segment.ms'],
      })),
    });
    let window = 0;
    for (const resource of resources) {
      if (resource.errorCode !== 0) throw new Error(`topic ${resource.resourceName}: ${resource.errorMessage}`);
      const config = new Map(resource.configEntries.map((entry) => [entry.configName, entry.configValue]));
      const retention = Number(config.get('retention.ms'));
      const segment = Number(config.get('segment.ms'));
      if (config.get('cleanup.policy')?.includes('compact') || !(retention >= 0) || !(segment >= 0)) return Infinity;
      window = Math.max(window, retention + segment);
    }
    return window;
  }

  private async ensureTopics(topics: string[]): Promise<void> {
    const missing = topics.filter((topic) => !this.knownTopics.has(topic));
    if (missing.length === 0) return;
    await this.connectAdmin();
    const existing = new Set(await this.admin.listTopics());
    const toCreate = missing.filter((topic) => !existing.has(topic));
    if (toCreate.length > 0) {
      // Not kafkajs's own wait for leaders: it gives up on the first "This server does not host this
      // topic-partition" (a broker whose metadata has not caught up with the new topic yet, common
      // on a loaded KRaft broker), which waitForLeaders below waits out.
      await this.admin.createTopics({
        waitForLeaders: false,
        topics: toCreate.map((topic) => ({
          topic,
          numPartitions: this.numPartitions,
          replicationFactor: this.replicationFactor,
        })),
      });
    }
    await this.waitForLeaders(missing);
    for (const topic of missing) this.knownTopics.add(topic);
  }

  /**
   * A topic just created (here or by another service starting at the same moment) may have no
   * partition leader yet, or be unknown to the broker asked ("This server does not host this
   * topic-partition"). Wait, bounded.
   */
  private async waitForLeaders(topics: string[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const { topics: metadata } = await this.admin.fetchTopicMetadata({ topics });
        const ready = metadata.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0));
        if (ready) return;
        if (attempt >= 20) throw new Error(`topics without a leader after ${attempt} checks: ${topics.join(', ')}`);
      } catch (error) {
        const retriable = (error as { retriable?: boolean }).retriable ?? false;
        if (!retriable || attempt >= 20) throw error;
      }
      await sleep(Math.min(100 * attempt, 1_000));
    }
  }

  private async deadLetter(groupId: string, topic: string, raw: KafkaMessage, error: unknown): Promise<void> {
    const text = errorText(error);
    this.logger.error({ groupId, topic, offset: raw.offset, err: text }, 'event dead-lettered');
    await this.connectProducer();
    await this.producer.send({
      topic: dlqTopic(topic),
      acks: -1,
      messages: [
        {
          key: raw.key,
          value: raw.value,
          headers: { ...withValues(raw.headers), [DLQ_ERROR_HEADER]: text.slice(0, 4000), [DLQ_GROUP_HEADER]: groupId },
        },
      ],
    });
    // Counted once set aside (a failed send is retried with the batch, then counted).
    this.onDeadLetter?.(groupId, this.unprefixed(topic));
  }

  private toBusMessage(topic: string, raw: KafkaMessage): BusMessage {
    const headers: Record<string, string> = {};
    for (const [name, values] of Object.entries(withValues(raw.headers))) {
      const first = Array.isArray(values) ? values[0] : values;
      if (first !== undefined) headers[name] = first.toString();
    }
    return {
      topic: topic.startsWith(this.prefix) ? topic.slice(this.prefix.length) : topic,
      key: raw.key?.toString() ?? '',
      value: raw.value
        ? new Uint8Array(raw.value.buffer, raw.value.byteOffset, raw.value.byteLength)
        : new Uint8Array(),
      headers,
      ...(raw.value === null ? { tombstone: true } : {}),
    };
  }
}

/**
 * A record's headers without those that have no value. Other clients may send a header whose value
 * is null (length -1 on the wire; KafkaJS reads it as `null`): such a header carries nothing, and
 * reading it (`toString`) or sending it on to the dead-letter topic (KafkaJS cannot encode it) would
 * throw before the record's retry and dead-letter handling, stopping its partition for good.
 */
export function withValues(headers: IHeaders | undefined): IHeaders {
  const kept: IHeaders = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const values = (Array.isArray(value) ? value : [value]).filter((v): v is Buffer | string => v != null);
    if (values.length > 0) kept[name] = Array.isArray(value) ? values : values[0];
  }
  return kept;
}

/** Waits for `promises` to settle, `ms` at most. */
async function within(ms: number, promises: (Promise<unknown> | undefined)[]): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled(promises), new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
