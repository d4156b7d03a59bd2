// A small SMTP server on 127.0.0.1 that accepts every message and hands it over parsed: the
// all-in-one's local mailbox (when SMTP_URL is unset) and the tests' mail catcher both use it.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  id: string;
  receivedAt: string;
  from: string;
  /** Envelope recipients, lower-case. */
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  /** The message as it arrived (RFC 5322). */
  raw: Buffer;
}

export interface LocalSmtpServer {
  /** smtp://127.0.0.1:<port> */
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface LocalSmtpOptions {
  host?: string;
  /** 0 (default): any free port. */
  port?: number;
  /** Called for each message; a rejection makes the server answer the client with a temporary error. */
  onMessage(mail: ReceivedMail): void | Promise<void>;
  /** Largest message accepted. Default 2 MB. */
  maxBytes?: number;
}

function addressText(value: AddressObject | AddressObject[] | undefined): string {
  if (!value) return '';
  return (Array.isArray(value) ? value : [value]).map((a) => a.text).join(', ');
}

export async function startLocalSmtpServer(options: LocalSmtpOptions): Promise<LocalSmtpServer> {
  const host = options.host ?? '127.0.0.1';
  const maxBytes = options.maxBytes ?? 2 * 1024 * 1024;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // Any user name and password are accepted: it only listens on the loopback interface.
    onAuth(_auth, _session, callback) {
      callback(null, { user: 'local' });
    },
    size: maxBytes,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= maxBytes) chunks.push(chunk);
      });
      stream.on('error', (err) => callback(err));
      stream.on('end', () => {
        void (async () => {
          if (size > maxBytes) return callback(Object.assign(new Error('Message too large'), { responseCode: 552 }));
          const raw = Buffer.concat(chunks);
          // Loaded with the first mail: mailparser's ~20 MB of memory is not paid by an idle server.
          const { simpleParser } = await import('mailparser');
          const parsed = await simpleParser(raw);
          const mail: ReceivedMail = {
            id: randomUUID(),
            receivedAt: new Date().toISOString(),
            from: addressText(parsed.from) || (session.envelope.mailFrom ? session.envelope.mailFrom.address : ''),
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : null,
            raw,
          };
          await options.onMessage(mail);
          callback();
        })().catch((err: unknown) =>
          callback(Object.assign(new Error(`Not stored: ${String(err)}`), { responseCode: 451 })),
        );
      });
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.server.once('error', onError);
    server.listen(options.port ?? 0, host, () => {
      server.server.off('error', onError);
      resolve();
    });
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://${host}:${port}`,
    port,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The http(s) links in a message's text (or its HTML when it has no text). */
export function linksIn(mail: Pick<ReceivedMail, 'text' | 'html'>): string[] {
  const source = mail.text || mail.html || '';
  const found = source.match(/https?:\/\/[^\s<>"')\]]+/g) ?? [];
  return [...new Set(found.map((link) => link.replace(/&amp;/g, '&').replace(/[.,;:!?]+$/, '')))];
}
