// The outgoing mail queue: a row in the service's own `outgoing_mail` table, written in the
// business transaction (so a mail goes out iff the change committed), delivered by MailSender.
import { randomUUID } from 'node:crypto';
import type { MailMessage } from './transport.ts';

/** A Prisma interactive transaction client, or anything with the same raw call. */
export interface MailSqlExecutor {
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
}

/** The NOTIFY channel that wakes the sender at commit. */
export const MAIL_CHANNEL = 'outgoing_mail';

/**
 * The queue table: the one definition. Each service that sends mail has its own (the mail is
 * written in the service's business transaction, so it goes out iff the change committed) and gets
 * it through mailQueueMigration. Idempotent: identity's 004_email.sql and analytics'
 * 002_notifications.sql created this same table in their own words before it was shared, and
 * migrations that ran are never edited (testkit's describeMailQueueTable keeps them equal).
 */
export const outgoingMailSchemaSql = `
create table if not exists outgoing_mail (
  id uuid primary key,
  "to" text not null,
  subject text not null,
  text text not null,
  html text,
  created_at timestamptz not null default now(),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  sent_at timestamptz,
  last_error text
);
create index if not exists outgoing_mail_due_idx on outgoing_mail (next_attempt_at) where sent_at is null;
`;

/** For a service definition's packageMigrations: applied after the service's own migrations. */
export const mailQueueMigration = { version: 'mail_outgoing_mail', sql: outgoingMailSchemaSql };

const MAX_ADDRESS = 254;
const MAX_SUBJECT = 500;

/** Writes one message to the queue inside the caller's transaction; returns its id. */
export async function enqueueMail(tx: MailSqlExecutor, message: MailMessage): Promise<string> {
  const to = message.to.trim();
  if (!to || to.length > MAX_ADDRESS || /[\r\n,;]/.test(to)) throw new Error('enqueueMail: one valid address expected');
  const subject = message.subject.replace(/[\r\n]+/g, ' ').slice(0, MAX_SUBJECT);
  const id = randomUUID();
  await tx.$executeRawUnsafe(
    'insert into outgoing_mail (id, "to", subject, text, html) values ($1::uuid, $2, $3, $4, $5)',
    id,
    to,
    subject,
    message.text,
    message.html ?? null,
  );
  // Delivered when the transaction commits: the sender wakes at once instead of at its next poll.
  await tx.$executeRawUnsafe(`select pg_notify('${MAIL_CHANNEL}', '')`);
  return id;
}

export interface MailQueue {
  enqueue(tx: MailSqlExecutor, message: MailMessage): Promise<string>;
}

export const mailQueue: MailQueue = { enqueue: enqueueMail };
