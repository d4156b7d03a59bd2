// The all-in-one's local mailbox: what its local SMTP server receives is kept under a directory
// (one .eml per message and a small JSON index of the newest ones), and an operator page lists it.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml } from './html.ts';
import type { ReceivedMail } from './local-smtp.ts';

export interface MailboxEntry {
  id: string;
  receivedAt: string;
  from: string;
  to: string[];
  subject: string;
  text: string;
}

const INDEX = 'index.json';
const KEY_FILE = 'key';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A directory of received mail; keeps the newest `limit` (default 500). */
export class MailboxStore {
  private entries: MailboxEntry[] = [];
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    readonly dir: string,
    private readonly limit: number,
  ) {}

  static async open(dir: string, limit = 500): Promise<MailboxStore> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const store = new MailboxStore(dir, limit);
    try {
      const parsed = JSON.parse(await readFile(path.join(dir, INDEX), 'utf8')) as unknown;
      if (Array.isArray(parsed)) store.entries = parsed.filter((e: MailboxEntry) => UUID.test(e?.id ?? ''));
    } catch {
      // No index yet.
    }
    return store;
  }

  /** The key of the operator page: random per directory, kept in it. */
  async key(): Promise<string> {
    const file = path.join(this.dir, KEY_FILE);
    if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
    const key = randomBytes(18).toString('base64url');
    await writeFile(file, key, { mode: 0o600 });
    return key;
  }

  list(): MailboxEntry[] {
    return [...this.entries];
  }

  get(id: string): MailboxEntry | undefined {
    return this.entries.find((e) => e.id === id);
  }

  add(mail: ReceivedMail): Promise<void> {
    const entry: MailboxEntry = {
      id: mail.id,
      receivedAt: mail.receivedAt,
      from: mail.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
    };
    const written = this.writing.then(async () => {
      await writeFile(path.join(this.dir, `${mail.id}.eml`), mail.raw, { mode: 0o600 });
      const entries = [entry, ...this.entries];
      const dropped = entries.splice(this.limit);
      const tmp = path.join(this.dir, `${INDEX}.tmp`);
      await writeFile(tmp, JSON.stringify(entries), { mode: 0o600 });
      await rename(tmp, path.join(this.dir, INDEX));
      // Listed once it is on disk: what the page shows survives a restart.
      this.entries = entries;
      for (const old of dropped) await rm(path.join(this.dir, `${old.id}.eml`), { force: true });
    });
    // One failed write (a full disk) must not fail every later one.
    this.writing = written.catch(() => {});
    return written;
  }
}

/** Links in the text become clickable; everything else is escaped. */
function textWithLinks(text: string): string {
  return text
    .split(/(https?:\/\/[^\s<>"']+)/g)
    .map((part, i) => (i % 2 === 1 ? `<a href="${escapeHtml(part)}">${escapeHtml(part)}</a>` : escapeHtml(part)))
    .join('');
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
</head><body>${body}</body></html>`;
}

function keyMatches(given: string | null, key: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Serves `/_mailbox?key=K` (the list) and `/_mailbox?key=K&id=…` (one message) as plain HTML
 * without scripts; a missing or wrong key answers 404. Returns false for other paths.
 */
export function handleMailboxRequest(
  store: MailboxStore,
  key: string,
  req: IncomingMessage,
  res: ServerResponse,
): boolean {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname !== '/_mailbox') return false;
  const send = (status: number, html: string) => {
    res.writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
    });
    res.end(req.method === 'HEAD' ? undefined : html);
  };
  if ((req.method !== 'GET' && req.method !== 'HEAD') || !keyMatches(url.searchParams.get('key'), key)) {
    send(404, page('Not found', '<h1>Not found</h1>'));
    return true;
  }
  const q = `key=${encodeURIComponent(key)}`;
  const id = url.searchParams.get('id');
  if (id) {
    const mail = store.get(id);
    if (!mail) {
      send(404, page('Not found', '<h1>Not found</h1>'));
      return true;
    }
    send(
      200,
      page(
        mail.subject,
        `<p><a href="/_mailbox?${q}">← Outgoing mail</a></p><h1>${escapeHtml(mail.subject)}</h1>
<p>From: ${escapeHtml(mail.from)}<br>To: ${escapeHtml(mail.to.join(', '))}<br>Received: ${escapeHtml(mail.receivedAt)}</p>
<pre>${textWithLinks(mail.text)}</pre>`,
      ),
    );
    return true;
  }
  const rows = store
    .list()
    .map(
      (m) =>
        `<tr><td>${escapeHtml(m.receivedAt)}</td><td>${escapeHtml(m.to.join(', '))}</td><td><a href="/_mailbox?${q}&amp;id=${m.id}">${escapeHtml(m.subject || '(no subject)')}</a></td></tr>`,
    )
    .join('');
  send(
    200,
    page(
      'Outgoing mail',
      `<h1>Outgoing mail</h1><p>Mail the app sent through its local SMTP server (newest first). Set SMTP_URL to deliver real mail.</p>
<table border="1" cellpadding="4"><thead><tr><th>Received</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows || '<tr><td colspan="3">No mail yet.</td></tr>'}</tbody></table>`,
    ),
  );
  return true;
}
