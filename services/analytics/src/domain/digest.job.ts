// Runs the notification digest every NOTIFICATION_DIGEST_MINUTES and delivers the analytics
// service's queued mail (packages/mail's sender loop). Without SMTP_URL mail waits in the queue.
import { MailSender, type MailTransport } from '@checkpoint/mail';
import type { Logger } from '@checkpoint/service-kit';
import type pg from 'pg';
import { runDigestPass } from '../data-access/digest.repository.ts';

export interface DigestJobOptions {
  intervalMs: number;
  baseUrl: string;
  transport: MailTransport | undefined;
  logger: Logger;
}

export class DigestJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private readonly sender: MailSender | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: DigestJobOptions,
  ) {
    this.sender = options.transport
      ? new MailSender({ pool, transport: options.transport, logger: options.logger })
      : undefined;
  }

  async start(): Promise<void> {
    await this.sender?.start();
    this.timer = setInterval(() => void this.runOnce(), this.options.intervalMs);
    this.timer.unref();
  }

  /** One pass now (also what the timer calls); a pass still running is not started twice. */
  runOnce(): Promise<unknown> {
    this.running ??= runDigestPass(this.pool, { windowMs: this.options.intervalMs, baseUrl: this.options.baseUrl })
      .then((result) => {
        if (result.sent > 0) this.options.logger.info(result, 'notification digests queued');
        return result;
      })
      .catch((err: unknown) => this.options.logger.warn({ err }, 'notification digest failed'))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
    await this.sender?.stop();
  }
}
