// An invitation from a district's admin in the browser: the admin (demo district; its password set
// with the mailed reset link) invites a teacher on /admin/users; the invitee opens the mailed link,
// sees the district and their address, chooses a password and lands signed in, in the district.
import { expect } from '@playwright/test';
import { pageInNewContext, signIn, signOut, test } from './helpers';
import { mailedLink, pathOf, setPasswordByMail } from './mailbox';

const DOMAIN = 'demo.checkpoint.school';

test.describe('invitation', () => {
  test.skip(!!process.env.E2E_BASE_URL, 'reads the mailbox of the all-in-one this run starts');

  test('when a district admin invites a teacher, then the invitee accepts on the mailed link and is signed in to the district', async ({
    page,
    browser,
  }) => {
    const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const admin = { email: `admin@${DOMAIN}`, password: `admin-pass-${run}`, firstName: '', lastName: '' };
    await setPasswordByMail(page, admin.email, admin.password);
    await signIn(page, admin);
    await page.goto('/admin/users');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const dialog = page.getByRole('dialog');
    // Any domain: the invitation, not the address, makes the district membership.
    const invitee = { email: `ivy.${run}@invited-${run}.example.com`, password: `ivy-pass-${run}` };
    await dialog.getByLabel('Email').fill(invitee.email);
    await dialog.getByLabel('Role').selectOption('teacher');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByText(`An invitation was mailed to ${invitee.email}.`)).toBeVisible();
    await signOut(page);

    const invited = await pageInNewContext(browser);
    await invited.goto(pathOf(await mailedLink(invitee.email, '/accept-invitation')));
    await expect(invited.getByRole('heading', { name: 'Join Demo District' })).toBeVisible();
    const email = invited.getByLabel('Email');
    await expect(email).toHaveValue(invitee.email);
    await expect(email).not.toBeEditable();
    await invited.getByLabel('First Name').fill('Ivy');
    await invited.getByLabel('Last Name').fill(`Invited${run}`);
    await invited.getByLabel('Password', { exact: true }).fill(invitee.password);
    await invited.getByLabel('Confirm Password').fill(invitee.password);
    await invited.getByRole('button', { name: 'Create account' }).click();
    await expect(invited).toHaveURL(/\/$/);
    await expect(invited.getByRole('button', { name: 'User menu' })).toBeVisible();
    const me = await invited.request.get('/api/auth/user');
    expect(await me.json()).toMatchObject({ email: invitee.email, role: 'teacher', accountType: 'district' });

    // The link is used up: opened again, the page says so.
    const again = await pageInNewContext(browser);
    await again.goto(pathOf(await mailedLink(invitee.email, '/accept-invitation')));
    await expect(again.getByText('This invitation has expired or was already used.')).toBeVisible();
  });
});
