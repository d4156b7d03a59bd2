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

/**
 * The newest link to `linkPath` (e.g. /verify-email) mailed to `email`, waiting for it to arrive;
 * mails whose ids are in `olderThan` (taken before the request) are passed over, so that a link of
 * an earlier test to the same address (used up since) is never taken for the new one.
 */
export async function mailedLink(
  email: string,
  linkPath: string,
  options: { olderThan?: Set<string>; timeoutMs?: number } = {},
): Promise<string> {
  const to = email.toLowerCase();
  let found: string | undefined;
  await expect
    .poll(
      async () => {
        for (const entry of await readMailbox()) {
          if (!entry.to.includes(to) || options.olderThan?.has(entry.id)) continue;
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
      { timeout: options.timeoutMs ?? 20_000, message: `a mail to ${email} with a ${linkPath} link` },
    )
    .toBe(true);
  return found!;
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
