// The mail the all-in-one under test sent: without SMTP_URL it keeps what its local SMTP server
// receives under DATA_DIR/mailbox (index.json, newest first). playwright.config.ts makes that data
// dir and passes it on as E2E_DATA_DIR.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';

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

/** The ids of the mails that have arrived so far (to wait for a newer one with `mailedLink`). */
export async function mailIds(): Promise<Set<string>> {
  return new Set((await readMailbox()).map((entry) => entry.id));
}

const linksOf = (entry: MailboxEntry) => entry.text.match(/https?:\/\/[^\s<>"')\]]+/g) ?? [];

/**
 * The newest mail to `email` for which `pick` gives a value (and that value), waiting for it to
 * arrive; mails whose ids are in `olderThan` (taken before the request) are passed over, so that a
 * mail of an earlier test to the same address is never taken for the new one.
 */
async function newestMail<T>(
  email: string,
  what: string,
  pick: (entry: MailboxEntry) => T | undefined,
  options: { olderThan?: Set<string>; timeoutMs?: number },
): Promise<T> {
  const to = email.toLowerCase();
  let found: T | undefined;
  await expect
    .poll(
      async () => {
        for (const entry of await readMailbox()) {
          if (!entry.to.includes(to) || options.olderThan?.has(entry.id)) continue;
          found = pick(entry);
          if (found !== undefined) return true;
        }
        return false;
      },
      { timeout: options.timeoutMs ?? 20_000, message: `a mail to ${email} ${what}` },
    )
    .toBe(true);
  return found!;
}

/** The newest link to `linkPath` (e.g. /verify-email) mailed to `email`, waiting for it to arrive. */
export function mailedLink(
  email: string,
  linkPath: string,
  options: { olderThan?: Set<string>; timeoutMs?: number } = {},
): Promise<string> {
  const link = (entry: MailboxEntry) => linksOf(entry).find((candidate) => new URL(candidate).pathname === linkPath);
  return newestMail(email, `with a ${linkPath} link`, link, options);
}

/** The newest mail to `email` with this subject (its text and links), waiting for it to arrive. */
export function mailWithSubject(
  email: string,
  subject: string,
  options: { olderThan?: Set<string>; timeoutMs?: number } = {},
): Promise<{ text: string; links: string[] }> {
  const mail = (entry: MailboxEntry) =>
    entry.subject === subject ? { text: entry.text, links: linksOf(entry) } : undefined;
  return newestMail(email, `"${subject}"`, mail, options);
}

/** The link as a path of the app under test (the mail's origin is PUBLIC_URL, maybe another host). */
export function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

/** Sets `password` on the account of `email` through Forgot password and the link mailed for it. */
export async function setPasswordByMail(page: Page, email: string, password: string): Promise<void> {
  const before = await mailIds();
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(`If an account exists for ${email}`)).toBeVisible();
  await page.goto(pathOf(await mailedLink(email, '/reset-password', { olderThan: before })));
  await page.getByLabel('New Password').fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page).toHaveURL(/\/auth\?mode=login$/);
}
