// A real SMTP server for tests: what the code under test sends arrives here, parsed.
import { linksIn, startLocalSmtpServer, type ReceivedMail } from '@checkpoint/mail';

export type CaughtMail = ReceivedMail;

export interface MailCatcher {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  port: number;
  /** Everything received so far, oldest first. */
  messages(): CaughtMail[];
  /** The first message (already received or arriving within timeoutMs) matching the predicate. */
  waitFor(predicate: (mail: CaughtMail) => boolean, timeoutMs?: number): Promise<CaughtMail>;
  /** The http(s) links in a message. */
  links(mail: CaughtMail): string[];
  /** Forgets what was received. */
  clear(): void;
  stop(): Promise<void>;
}

export async function startMailCatcher(options: { port?: number } = {}): Promise<MailCatcher> {
  const received: CaughtMail[] = [];
  const waiters = new Set<() => void>();
  const server = await startLocalSmtpServer({
    ...(options.port ? { port: options.port } : {}),
    onMessage(mail) {
      received.push(mail);
      for (const wake of [...waiters]) wake();
    },
  });
  return {
    url: server.url,
    port: server.port,
    messages: () => [...received],
    waitFor(predicate, timeoutMs = 10_000) {
      const found = received.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const check = () => {
          const mail = received.find(predicate);
          if (!mail) return;
          done();
          resolve(mail);
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no matching mail within ${timeoutMs} ms (received ${received.length})`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
      });
    },
    links: (mail) => linksIn(mail),
    clear: () => void received.splice(0),
    stop: () => server.stop(),
  };
}
