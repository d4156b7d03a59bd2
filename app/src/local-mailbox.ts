// The all-in-one's and the stack's mail when SMTP_URL is unset: a local SMTP server on 127.0.0.1
// (packages/mail) whose messages are kept under DATA_DIR/mailbox (.eml files and a JSON index of
// the newest 500) and listed at /_mailbox?key=K, K being random per data dir (kept in it).
import { createServer, type RequestListener } from 'node:http';
import {
  handleMailboxRequest,
  MailboxStore,
  startLocalSmtpServer,
  type MailboxEntry,
  type ReceivedMail,
} from '@checkpoint/mail';

export interface LocalMailbox {
  /** smtp://127.0.0.1:<port>: the services' SMTP_URL. */
  smtpUrl: string;
  /** Key of the /_mailbox page (undefined without a directory: nothing is kept, no page). */
  key?: string;
  /** Where the mail is kept (with a directory). */
  store?: MailboxStore;
  /** What arrived, newest first. */
  messages(): MailboxEntry[];
  stop(): Promise<void>;
}

/** Starts the local SMTP server; with `dir` the mail is kept there (else the newest 500 in memory). */
export async function startLocalMailbox(dir: string | undefined, port = 0): Promise<LocalMailbox> {
  const store = dir ? await MailboxStore.open(dir) : undefined;
  const memory: MailboxEntry[] = [];
  const remember = (mail: ReceivedMail) => {
    memory.unshift({
      id: mail.id,
      receivedAt: mail.receivedAt,
      from: mail.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
    });
    memory.splice(500);
  };
  const server = await startLocalSmtpServer({
    port,
    onMessage: (mail) => (store ? store.add(mail) : remember(mail)),
  });
  const key = store ? await store.key() : undefined;
  return {
    smtpUrl: server.url,
    ...(key ? { key } : {}),
    ...(store ? { store } : {}),
    messages: () => (store ? store.list() : [...memory]),
    stop: () => server.stop(),
  };
}

/** The /_mailbox page on its own port (the stack, whose gateway is another process); returns its address. */
export async function serveMailboxPage(mailbox: LocalMailbox, port: number): Promise<string | undefined> {
  const store = mailbox.store;
  const key = mailbox.key;
  if (!store || !key) return undefined;
  const server = createServer((req, res) => {
    if (!handleMailboxRequest(store, key, req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  server.unref();
  return `http://localhost:${port}/_mailbox?key=${key}`;
}

/** The gateway behind a small front that answers /_mailbox (only when the mailbox has a page). */
export function withMailboxPage(gateway: RequestListener, mailbox: LocalMailbox): RequestListener {
  const store = mailbox.store;
  if (!store || !mailbox.key) return gateway;
  const key = mailbox.key;
  return (req, res) => {
    if (!handleMailboxRequest(store, key, req, res)) gateway(req, res);
  };
}
