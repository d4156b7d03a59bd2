// Delivers queued mail: woken by NOTIFY at commit, polling as the fallback (a PollingLoop). Rows
// are claimed with FOR UPDATE SKIP LOCKED (replicas share the work), a failure is retried with
// exponential backoff, and after maxAttempts the row is left unsent with its last error (logged as
// a warning).
import { PollingLoop } from '@checkpoint/events';
import type pg from 'pg';
import { MAIL_CHANNEL } from './queue.ts';
import type { MailTransport } from './transport.ts';

/** pino-compatible subset. */
export interface MailLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface MailSenderOptions {
  /** The service's pool (search_path = its schema). One connection is held for LISTEN. */
  pool: pg.Pool;
  transport: MailTransport;
  logger?: MailLogger;
  /** Default 5000 ms. */
  pollIntervalMs?: number;
  /** Delay after the first failure, doubled each attempt. Default 30 s. */
  initialBackoffMs?: number;
  /** Default 1 h. */
  maxBackoffMs?: number;
  /** Attempts before giving up on a message. Default 8. */
  maxAttempts?: number;
  /** Messages per batch. Default 20. */
  batchSize?: number;
  /** Sent (and given-up) rows are deleted after this long: they carry one-time links. Default 7 days. */
  retentionMs?: number;
}

interface Row {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  attempts: number;
}

const silent: MailLogger = { info() {}, warn() {} };
const CLEANUP_EVERY_MS = 3_600_000;

export class MailSender {
  private readonly opts: Required<Omit<MailSenderOptions, 'logger'>> & { logger: MailLogger };
  private readonly loop: PollingLoop;
  private lastCleanup = 0;

  constructor(options: MailSenderOptions) {
    this.opts = {
      logger: silent,
      pollIntervalMs: 5000,
      initialBackoffMs: 30_000,
      maxBackoffMs: 3_600_000,
      maxAttempts: 8,
      batchSize: 20,
      retentionMs: 7 * 24 * 3_600_000,
      ...options,
    };
    const { logger } = this.opts;
    this.loop = new PollingLoop({
      name: 'mail sender',
      pass: () => this.pass(),
      intervalMs: this.opts.pollIntervalMs,
      onError: (err) => logger.warn({ err: String(err) }, 'mail sender: batch failed'),
      listen: { pool: this.opts.pool, channel: MAIL_CHANNEL },
      // A batch in flight may wait on a slow SMTP server: shutdown does not wait for it beyond 10 s
      // (its rows stay locked only until its transaction ends, and go out again: at-least-once).
      stopTimeoutMs: 10_000,
      logger,
    });
  }

  start(): Promise<void> {
    return this.loop.start();
  }

  async stop(): Promise<void> {
    if (!this.loop.running) return;
    await this.loop.stop();
    this.opts.transport.close();
  }

  /** Sends the messages that are due now; returns how many were tried. */
  async sendDue(): Promise<number> {
    const { pool, batchSize, maxAttempts } = this.opts;
    const client = await pool.connect();
    let broken = false;
    try {
      await client.query('begin');
      const { rows } = await client.query<Row>(
        `select id, "to", subject, text, html, attempts from outgoing_mail
          where sent_at is null and attempts < $1 and next_attempt_at <= now()
          order by next_attempt_at, created_at limit $2 for update skip locked`,
        [maxAttempts, batchSize],
      );
      for (const row of rows) await this.deliver(client, row);
      await client.query('commit');
      return rows.length;
    } catch (err) {
      await client.query('rollback').catch(() => {
        broken = true;
      });
      throw err;
    } finally {
      client.release(broken);
    }
  }

  private async deliver(client: pg.PoolClient, row: Row): Promise<void> {
    const { transport, logger, initialBackoffMs, maxBackoffMs, maxAttempts } = this.opts;
    try {
      await transport.send(row);
      await client.query(
        'update outgoing_mail set sent_at = now(), attempts = attempts + 1, last_error = null where id = $1',
        [row.id],
      );
    } catch (err) {
      const attempts = row.attempts + 1;
      const error = withoutAddresses(err instanceof Error ? err.message : String(err));
      const delay = Math.min(initialBackoffMs * 2 ** (attempts - 1), maxBackoffMs);
      await client.query(
        `update outgoing_mail set attempts = $2, last_error = $3,
                next_attempt_at = now() + $4 * interval '1 millisecond' where id = $1`,
        [row.id, attempts, error.slice(0, 2000), delay],
      );
      if (attempts >= maxAttempts) {
        logger.warn({ mailId: row.id, attempts, err: error }, 'mail sender: giving up on a message');
      } else {
        logger.info(
          { mailId: row.id, attempts, retryInMs: delay, err: error },
          'mail sender: delivery failed, will retry',
        );
      }
    }
  }

  /** One pass of the loop: a batch; true when it was full (more may be due). */
  private async pass(): Promise<boolean> {
    const tried = await this.sendDue();
    await this.cleanup().catch((err: unknown) =>
      this.opts.logger.warn({ err: String(err) }, 'mail sender: batch failed'),
    );
    return tried === this.opts.batchSize;
  }

  private async cleanup(): Promise<void> {
    if (Date.now() - this.lastCleanup < CLEANUP_EVERY_MS) return;
    this.lastCleanup = Date.now();
    await this.opts.pool.query(
      `delete from outgoing_mail where created_at < now() - $1 * interval '1 millisecond'
         and (sent_at is not null or attempts >= $2)`,
      [this.opts.retentionMs, this.opts.maxAttempts],
    );
  }
}

/**
 * An SMTP error's text without the mail addresses in it: a server's refusal quotes the recipient
 * (`550 5.1.1 <student@district.org>: Recipient address rejected`), and this text goes to the logs
 * and `last_error`. The reason stays; the row already names its recipient.
 */
export function withoutAddresses(text: string): string {
  return text.replace(/[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g, '<address>');
}
