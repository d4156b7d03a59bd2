// The mail the all-in-one under test sent: without SMTP_URL it keeps what its local SMTP server
// receives under DATA_DIR/mailbox (index.json, newest first). playwright.config.ts makes that data
// dir and passes it on as E2E_DATA_DIR.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from '@playwright/test';

interface MailboxEntry {
  id: string;
  to: string[];
  subject: string;
  text: string;
}

async function readMailbox(): Promise<MailboxEntry[]> {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir)
    throw new Error('E2E_DATA_DIR is unset: the mailbox is only readable when playwright.config.ts starts the server');
  try {
    return JSON.parse(await readFile(path.join(dir, 'mailbox', 'index.json'), 'utf8')) as MailboxEntry[];
  } catch {
    return [];
  }
}

/** The newest link to `linkPath` (e.g. /verify-email) mailed to `email`, waiting for it to arrive. */
export async function mailedLink(email: string, linkPath: string, timeoutMs = 20_000): Promise<string> {
  const to = email.toLowerCase();
  let found: string | undefined;
  await expect
    .poll(
      async () => {
        for (const entry of await readMailbox()) {
          if (!entry.to.includes(to)) continue;
          const link = (entry.text.match(/https?:\/\/[^\s<>"')\]]+/g) ?? []).find(
            (candidate) => new URL(candidate).pathname === linkPath,
          );
          if (link) {
            found = link;
            return true;
          }
        }
        return false;
      },
      { timeout: timeoutMs, message: `a mail to ${email} with a ${linkPath} link` },
    )
    .toBe(true);
  return found!;
}

/** The link as a path of the app under test (the mail's origin is PUBLIC_URL, maybe another host). */
export function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}
