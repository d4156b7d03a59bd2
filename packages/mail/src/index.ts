// @checkpoint/mail: outgoing mail for every service. A service writes a message to its own
// `outgoing_mail` table inside the business transaction (mailQueue.enqueue) and runs a MailSender,
// which delivers through SMTP (SMTP_URL, MAIL_FROM). The local SMTP server and mailbox serve the
// all-in-one without SMTP_URL and the tests' mail catcher.
export { DEFAULT_MAIL_FROM, mailConfigSchema, readMailConfig, redactSmtpUrl, type MailConfig } from './config.ts';
export { smtpTransport, transportFromConfig, type MailMessage, type MailTransport } from './transport.ts';
export {
  enqueueMail,
  MAIL_CHANNEL,
  mailQueue,
  mailQueueMigration,
  outgoingMailSchemaSql,
  type MailQueue,
  type MailSqlExecutor,
} from './queue.ts';
export { MailSender, type MailLogger, type MailSenderOptions } from './sender.ts';
export {
  linksIn,
  startLocalSmtpServer,
  type LocalSmtpOptions,
  type LocalSmtpServer,
  type ReceivedMail,
} from './local-smtp.ts';
export { escapeHtml } from './html.ts';
export { handleMailboxRequest, MailboxStore, type MailboxEntry } from './mailbox.ts';
