// Students without email (issue 32 item 5, docs/adr/015-students-without-email.md): a teacher adds
// a young student to a class on the class page's "Student logins" with a username and a picture;
// the student signs in with the class code, their name and their picture (a wrong picture first);
// the teacher prints the class's login cards and the card's QR address signs another browser in;
// revoked, the card is refused. The sign-in page and the class page pass axe.
import { expect } from '@playwright/test';
import { apiPost, checkA11y, newUser, pageInNewContext, signUp, test } from './helpers';

test('a teacher makes a login without email; the student signs in with the class code and a picture, and with a login card until it is revoked', async ({
  page,
  browser,
}) => {
  await signUp(page, newUser());
  const cls = await apiPost<{ id: string; joinCode: string }>(page, '/api/classes', {
    name: '2nd grade reading',
    subject: 'Reading',
    period: '1',
  });
  // Identity learns of the class from its ClassCreated.
  await expect.poll(async () => (await page.request.get(`/api/classes/${cls.id}/student-logins`)).status()).toBe(200);

  await page.goto(`/class/${cls.id}`);
  await page.getByRole('button', { name: 'Add a student without email' }).click();
  const form = page.getByRole('form', { name: 'Add a student without email' });
  await form.getByLabel('First name').fill('Maya');
  await form.getByLabel('Last name').fill('Rivera');
  const username = `maya.${Date.now().toString(36)}`;
  await form.getByLabel('Username').fill(username);
  await form.getByRole('button', { name: 'cat' }).click();
  await form.getByRole('button', { name: 'Add student' }).click();
  await expect(page.getByRole('status')).toContainText('Maya can now sign in with the class code');
  await expect(page.getByRole('table', { name: 'Student logins' })).toContainText(username);
  await checkA11y(page, 'class page with student logins');

  // The student, in another browser: class code, name, a wrong picture, then theirs.
  const kid = await pageInNewContext(browser);
  await kid.goto('/auth');
  await kid.getByRole('button', { name: 'Sign in with class code' }).click();
  await kid.getByLabel('Class code', { exact: true }).fill(cls.joinCode.toLowerCase());
  await kid.getByRole('button', { name: 'Next' }).click();
  await kid.getByRole('button', { name: 'Maya R.' }).click();
  await checkA11y(kid, 'class-code sign-in, pictures');
  await kid.getByRole('button', { name: 'dog' }).click();
  await expect(kid.getByRole('alert')).toContainText('That is not your picture or words');
  await kid.getByRole('button', { name: 'cat' }).click();
  await expect(kid).toHaveURL(/\/$/);
  const me = (await (await kid.request.get('/api/auth/user')).json()) as { firstName: string; role: string };
  expect(me).toMatchObject({ firstName: 'Maya', role: 'student' });

  // Login cards: printed, scanned (the QR's address opened in a third browser), then revoked.
  const printed = page.waitForResponse((r) => r.url().endsWith(`/api/classes/${cls.id}/login-cards`));
  await page.getByRole('button', { name: 'Print login cards' }).click();
  const cards = (await (await printed).json()) as { cards: { url: string }[] };
  const card = page.getByRole('listitem', { name: 'Login card of Maya Rivera' });
  await expect(card.getByRole('img', { name: 'QR code to sign in as Maya' })).toBeVisible();
  await expect(card).toContainText(cls.joinCode);
  const address = new URL(cards.cards[0]!.url);
  const scanner = await pageInNewContext(browser);
  await scanner.goto(`${address.pathname}${address.hash}`);
  await expect(scanner).toHaveURL(/\/$/);
  expect(((await (await scanner.request.get('/api/auth/user')).json()) as { firstName: string }).firstName).toBe(
    'Maya',
  );

  await page.getByRole('button', { name: 'Revoke login cards' }).click();
  await expect(page.getByRole('status')).toContainText('1 login card no longer works');
  const late = await pageInNewContext(browser);
  await late.goto(`${address.pathname}${address.hash}`);
  await expect(late.getByRole('alert')).toContainText('This login card no longer works');
});
