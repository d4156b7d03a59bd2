// Delivery through SMTP (nodemailer), from SMTP_URL and MAIL_FROM.
import nodemailer from 'nodemailer';
import type { MailConfig } from './config.ts';

/** A message as the queue stores it. Never put a password in one. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
}

export interface MailTransport {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** An SMTP transport; `timeoutMs` bounds connecting and each SMTP step. */
export function smtpTransport(config: { smtpUrl: string; from: string; timeoutMs?: number }): MailTransport {
  const timeout = config.timeoutMs ?? 15_000;
  const url = new URL(config.smtpUrl);
  const transporter = nodemailer.createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
    secure: url.protocol === 'smtps:',
    ...(url.username
      ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
      : {}),
    // A local relay on plain smtp:// may offer no TLS; nodemailer upgrades with STARTTLS when offered.
    ...(url.hostname === '127.0.0.1' || url.hostname === 'localhost' ? { tls: { rejectUnauthorized: false } } : {}),
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return {
    async send(message) {
      await transporter.sendMail({
        from: config.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
      });
    },
    close() {
      transporter.close();
    },
  };
}

/** The transport of a validated mail config, or undefined when SMTP_URL is unset. */
export function transportFromConfig(config: MailConfig): MailTransport | undefined {
  return config.SMTP_URL ? smtpTransport({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM }) : undefined;
}
