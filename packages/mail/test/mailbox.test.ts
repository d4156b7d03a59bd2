// The all-in-one's local mailbox: the local SMTP server keeps what arrives in a directory, and the
// operator page lists it behind a random key.
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { handleMailboxRequest, MailboxStore, smtpTransport, startLocalSmtpServer } from '../src/index.ts';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function mailbox(limit = 500) {
  const dir = await mkdtemp(path.join(tmpdir(), 'mailbox-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  const store = await MailboxStore.open(dir, limit);
  const smtp = await startLocalSmtpServer({ onMessage: (mail) => store.add(mail) });
  cleanup.push(() => smtp.stop());
  const key = await store.key();
  const server: Server = createServer((req, res) => {
    if (!handleMailboxRequest(store, key, req, res)) res.writeHead(418).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => new Promise((resolve) => server.close(resolve)));
  const page = `http://127.0.0.1:${(server.address() as AddressInfo).port}/_mailbox`;
  const transport = smtpTransport({ smtpUrl: smtp.url, from: 'Checkpoint <no-reply@localhost>' });
  cleanup.push(async () => transport.close());
  return { dir, store, key, page, transport };
}

describe('local mailbox', () => {
  it('when a message cannot be written, then it is not listed, and the next one is kept as usual', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mailbox-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const store = await MailboxStore.open(dir);
    const mail = (subject: string) => ({
      id: randomUUID(),
      receivedAt: new Date().toISOString(),
      from: 'no-reply@localhost',
      to: ['ada@example.com'],
      subject,
      text: subject,
      html: null,
      raw: Buffer.from(`Subject: ${subject}\r\n\r\n${subject}`),
    });
    // The directory gone (a full or unmounted disk): the write fails.
    await rm(dir, { recursive: true, force: true });
    await expect(store.add(mail('lost'))).rejects.toThrow();
    expect(store.list()).toEqual([]);
    await mkdir(dir);
    await store.add(mail('kept'));
    expect(store.list().map((m) => m.subject)).toEqual(['kept']);
    const index = JSON.parse(await readFile(path.join(dir, 'index.json'), 'utf8')) as { subject: string }[];
    expect(index.map((m) => m.subject)).toEqual(['kept']);
  });

  it('when mail arrives, then it is kept as .eml with an index and listed on the page only with the key', async () => {
    const { dir, store, key, page, transport } = await mailbox();
    await transport.send({
      to: 'ada@example.com',
      subject: 'Reset <your> password',
      text: 'Open http://localhost:8080/reset-password?token=abc <script>alert(1)</script>',
    });
    const files = await readdir(dir);
    expect(files.filter((f) => f.endsWith('.eml'))).toHaveLength(1);
    const index = JSON.parse(await readFile(path.join(dir, 'index.json'), 'utf8'));
    expect(index).toMatchObject([{ to: ['ada@example.com'], subject: 'Reset <your> password' }]);

    expect((await fetch(page)).status).toBe(404);
    expect((await fetch(`${page}?key=wrong`)).status).toBe(404);
    const list = await fetch(`${page}?key=${key}`);
    expect(list.status).toBe(200);
    expect(list.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(list.headers.get('content-security-policy')).not.toMatch(/unsafe-inline/);
    const html = await list.text();
    expect(html).toContain('Reset &lt;your&gt; password');
    expect(html).not.toMatch(/<script/i);

    const id = store.list()[0]!.id;
    const one = await (await fetch(`${page}?key=${key}&id=${id}`)).text();
    expect(one).toContain('<a href="http://localhost:8080/reset-password?token=abc">');
    expect(one).toContain('&lt;script&gt;');
    expect(one).not.toMatch(/<script/i);
    // The key stays the same for the directory.
    expect(await (await MailboxStore.open(dir)).key()).toBe(key);
  });

  it('when more than the limit arrives, then only the newest are kept', async () => {
    const { dir, store, transport } = await mailbox(2);
    for (const n of [1, 2, 3]) await transport.send({ to: 'a@example.com', subject: `Mail ${n}`, text: 'x' });
    expect(store.list().map((m) => m.subject)).toEqual(['Mail 3', 'Mail 2']);
    expect((await readdir(dir)).filter((f) => f.endsWith('.eml'))).toHaveLength(2);
  });
});
