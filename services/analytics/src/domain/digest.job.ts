// Runs the notification digest every NOTIFICATION_DIGEST_MINUTES and delivers the analytics
// service's queued mail (packages/mail's sender loop). Without SMTP_URL mail waits in the queue.
import { MailSender, type MailTransport } from '@checkpoint/mail';
import { PollingLoop, type Logger } from '@checkpoint/service-kit';
import type pg from 'pg';
import { runDigestPass } from '../data-access/digest.repository.ts';

export interface DigestJobOptions {
  intervalMs: number;
  baseUrl: string;
  transport: MailTransport | undefined;
  logger: Logger;
}

export class DigestJob {
  private readonly loop: PollingLoop;
  private readonly sender: MailSender | undefined;

  constructor(pool: pg.Pool, options: DigestJobOptions) {
    this.sender = options.transport
      ? new MailSender({ pool, transport: options.transport, logger: options.logger })
      : undefined;
    // One pass per interval; a pass still running is not started twice.
    this.loop = new PollingLoop({
      name: 'notification digest',
      pass: async () => {
        const result = await runDigestPass(pool, { windowMs: options.intervalMs, baseUrl: options.baseUrl });
        if (result.sent > 0) options.logger.info(result, 'notification digests queued');
      },
      intervalMs: options.intervalMs,
      pace: 'fixed-rate',
      onError: (err) => options.logger.warn({ err }, 'notification digest failed'),
    });
  }

  async start(): Promise<void> {
    await this.sender?.start();
    await this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    await this.sender?.stop();
  }
}
