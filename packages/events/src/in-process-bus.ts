// The bus of the single-process mode: delivers straight to the subscribed handlers. publish()
// resolves only after every group handled every message, so the relay marks an outbox row
// published only once it was consumed (at-least-once, deduplicated by the inbox).
import {
  defaultRetryPolicy,
  errorText,
  handleWithRetry,
  logRetry,
  silentLogger,
  type Bus,
  type BusMessage,
  type DeadLetter,
  type Logger,
  type RetryPolicy,
  type SubscribeOptions,
} from './bus.ts';

export interface InProcessBusOptions {
  logger?: Logger;
  retry?: Partial<RetryPolicy>;
  /** Called for each message that kept failing; it is also kept in `deadLetters`. */
  onDeadLetter?: (deadLetter: DeadLetter) => void;
}

const MAX_KEPT_DEAD_LETTERS = 1000;

interface Group {
  options: SubscribeOptions;
  /** Tail of the delivery chain per key: one key is handled in order, keys in parallel. */
  tails: Map<string, Promise<void>>;
}

export class InProcessBus implements Bus {
  /** Messages set aside after every retry failed (the last 1000, most recent last). */
  readonly deadLetters: DeadLetter[] = [];
  private readonly groups = new Map<string, Group>();
  private readonly logger: Logger;
  private readonly retry: RetryPolicy;
  private readonly onDeadLetter: ((deadLetter: DeadLetter) => void) | undefined;
  private stopped = false;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(options: InProcessBusOptions = {}) {
    this.logger = options.logger ?? silentLogger;
    this.retry = { ...defaultRetryPolicy, ...options.retry };
    this.onDeadLetter = options.onDeadLetter;
  }

  async subscribe(options: SubscribeOptions): Promise<void> {
    if (this.groups.has(options.groupId)) throw new Error(`group ${options.groupId} already subscribed`);
    this.groups.set(options.groupId, { options, tails: new Map() });
  }

  async publish(messages: BusMessage[]): Promise<void> {
    if (this.stopped) throw new Error('in-process bus stopped');
    const deliveries: Promise<void>[] = [];
    for (const message of messages) {
      for (const group of this.groups.values()) {
        if (!group.options.topics.includes(message.topic)) continue;
        const previous = group.tails.get(message.key) ?? Promise.resolve();
        const delivery = previous.then(() => this.deliver(group, message));
        group.tails.set(message.key, delivery);
        void delivery.then(() => {
          if (group.tails.get(message.key) === delivery) group.tails.delete(message.key);
        });
        deliveries.push(delivery);
      }
    }
    const all = Promise.all(deliveries).then(() => undefined);
    this.inFlight.add(all);
    try {
      await all;
    } finally {
      this.inFlight.delete(all);
    }
  }

  isReady(): boolean {
    return !this.stopped;
  }

  /** Refuses new messages and waits for the deliveries in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Never rejects: a message that keeps failing is dead-lettered so later ones still flow. */
  private async deliver(group: Group, message: BusMessage): Promise<void> {
    const { groupId, handler } = group.options;
    const result = await handleWithRetry(handler, message, this.retry, logRetry(this.logger, groupId, message));
    if (!result) return;
    const deadLetter: DeadLetter = { groupId, message, error: errorText(result.failed) };
    this.deadLetters.push(deadLetter);
    if (this.deadLetters.length > MAX_KEPT_DEAD_LETTERS) this.deadLetters.shift();
    this.logger.error(
      { groupId, topic: message.topic, key: message.key, eventId: message.headers.ce_id, err: deadLetter.error },
      'event dead-lettered',
    );
    try {
      this.onDeadLetter?.(deadLetter);
    } catch (error) {
      this.logger.error({ err: errorText(error) }, 'onDeadLetter callback failed');
    }
  }
}
