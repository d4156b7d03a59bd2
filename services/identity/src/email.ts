// Wiring of mail (packages/mail) and the email links (domain/email-links.use-case.ts): the queue,
// the sender loop started and stopped with the service, and the email router.
import { MailSender, mailQueue, redactSmtpUrl, transportFromConfig, type MailConfig } from '@checkpoint/mail';
import type pg from 'pg';
import { emailRouter } from './api/email.router.ts';
import type { SessionCookies } from './api/session-cookies.ts';
import { emailTokensRepository } from './data-access/email-tokens.repository.ts';
import type { Db, Tx } from './data-access/prisma.ts';
import type { SessionsRepository } from './data-access/sessions.repository.ts';
import type { UsersRepository } from './data-access/users.repository.ts';
import { sendEmailChange, type EmailLinkDeps } from './domain/email-links.use-case.ts';
import type { Limiter, UserEventWriter } from './domain/ports.ts';
import type { SessionDeps } from './domain/sessions.use-case.ts';
import type { UserRecord } from './domain/user.ts';

export interface EmailWiringInput {
  db: Db;
  pool: pg.Pool;
  users: UsersRepository;
  sessions: SessionsRepository;
  events: UserEventWriter;
  publicUrl: string;
  /** SMTP_URL and MAIL_FROM (validated by the config schema). */
  mail: MailConfig;
  logger: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
  limiter(keyPrefix: string, points: number): Limiter;
  /** Mails asked for per address per minute (RATE_LIMIT_EMAIL_PER_MINUTE). */
  perEmailPerMinute: number;
  /** Password changes per user per minute. */
  passwordChangesPerMinute: number;
}

export function emailWiring(input: EmailWiringInput) {
  const mailConfig = input.mail;
  const tokens = emailTokensRepository(input.db);
  const links: EmailLinkDeps = {
    users: input.users,
    tokens,
    sessions: input.sessions,
    events: input.events,
    mail: mailQueue,
    publicUrl: input.publicUrl,
  };
  const transport = transportFromConfig(mailConfig);
  const sender = transport ? new MailSender({ pool: input.pool, transport, logger: input.logger }) : undefined;
  return {
    links,
    tokens,
    /** For AccountDeps.sendEmailChange and pendingEmailChange. */
    sendEmailChange: (tx: Tx, user: UserRecord, newEmail: string, options: { addressTaken: boolean }) =>
      sendEmailChange(links, tx, user, newEmail, options),
    pendingEmailChange: (userId: string) => tokens.findPendingEmailChange(userId),
    router: (sessionDeps: SessionDeps, cookies: SessionCookies) =>
      emailRouter({
        links,
        sessions: sessionDeps,
        cookies,
        limits: {
          perAddress: input.limiter('email_ip', input.perEmailPerMinute * 6),
          perEmail: input.limiter('email_address', input.perEmailPerMinute),
          perUser: input.limiter('password_user', input.passwordChangesPerMinute),
        },
      }),
    async start(): Promise<void> {
      if (sender) {
        await sender.start();
        input.logger.info({ smtp: redactSmtpUrl(mailConfig.SMTP_URL!) }, 'mail sender started');
      } else {
        input.logger.warn({}, 'SMTP_URL is unset: outgoing mail stays queued (outgoing_mail) until it is set');
      }
    },
    async stop(): Promise<void> {
      await sender?.stop();
    },
  };
}
