// The transport-neutral message bus that the outbox relay publishes to and consumers read from.

/** One event on the wire: key = aggregate id, value = protobuf binary, CloudEvents headers. */
export interface BusMessage {
  topic: string;
  key: string;
  value: Uint8Array;
  headers: Record<string, string>;
  /** A tombstone: published with a null value (value is empty); consumers skip it. */
  tombstone?: boolean;
}

/** Handles one message; resolving means "done, commit". Rejecting means "retry". */
export type BusHandler = (message: BusMessage) => Promise<void>;

/**
 * Handles messages that arrived together, in order, as one unit: resolving means all are done,
 * rejecting means none is (the bus then handles them one by one with `handler`).
 */
export type BatchHandler = (messages: BusMessage[]) => Promise<void>;

export interface SubscribeOptions {
  groupId: string;
  topics: string[];
  handler: BusHandler;
  /** Optional: used by buses that receive messages in batches (Kafka). */
  batchHandler?: BatchHandler;
}

/** A message that kept failing and was set aside so that the messages after it could flow. */
export interface DeadLetter {
  groupId: string;
  message: BusMessage;
  error: string;
}

export interface Bus {
  /** Resolves once the transport has durably accepted every message (in-process: handled). */
  publish(messages: BusMessage[]): Promise<void>;
  subscribe(options: SubscribeOptions): Promise<void>;
  isReady(): boolean;
  stop(): Promise<void>;
}

/** pino-compatible subset. */
export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} };

export interface RetryPolicy {
  /** Attempts before a message is dead-lettered. Default 5. */
  attempts: number;
  /** Delay before the 2nd attempt, doubled each time. Default 200 ms. */
  initialDelayMs: number;
  /** Default 5 s. */
  maxDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { attempts: 5, initialDelayMs: 200, maxDelayMs: 5_000 };

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs the handler with retries; returns `{ failed }` with the last error when every attempt failed. */
export async function handleWithRetry(
  handler: BusHandler,
  message: BusMessage,
  policy: RetryPolicy,
  onRetry: (error: unknown, attempt: number) => void,
): Promise<{ failed: unknown } | undefined> {
  for (let attempt = 1; ; attempt++) {
    try {
      await handler(message);
      return undefined;
    } catch (error) {
      if (attempt >= policy.attempts) return { failed: error };
      onRetry(error, attempt);
      await sleep(Math.min(policy.initialDelayMs * 2 ** (attempt - 1), policy.maxDelayMs));
    }
  }
}

/** The `onRetry` of handleWithRetry that logs each failed attempt of the message. */
export function logRetry(logger: Logger, groupId: string, message: BusMessage) {
  return (error: unknown, attempt: number): void =>
    logger.warn(
      {
        groupId,
        topic: message.topic,
        key: message.key,
        eventId: message.headers.ce_id,
        attempt,
        err: errorText(error),
      },
      'event handler failed, retrying',
    );
}

export function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
